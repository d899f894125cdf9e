"""Backends (meeple.lab.run.backends): the same results whatever the backend and job count."""

from __future__ import annotations

import os

import pytest

from meeple.engine.errors import ParameterError
from meeple.engine.registry import load_game
from meeple.lab.run.backends import (
    ProcessBackend,
    SerialBackend,
    check_backend,
    make_backend,
    resolve_jobs,
)
from meeple.lab.run.runner import chunk_size, run_playtest
from meeple.lab.run.store import RunStore, run_config

GAME = "battle-of-the-four-gods"


def _square(x):
    return x * x


def _fail_on_three(x):
    if x == 3:
        raise ValueError("three")
    return x


def _strip(results):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in results]


def test_make_backend_picks_serial_for_one_job_and_checks_its_arguments():
    assert isinstance(make_backend("process", 1), SerialBackend)
    with make_backend("process", 2) as backend:
        assert isinstance(backend, ProcessBackend) and backend.jobs == 2
    assert resolve_jobs(0) == (os.cpu_count() or 1)
    with pytest.raises(ParameterError, match="unknown backend 'dask'"):
        make_backend("dask", 1)
    with pytest.raises(ParameterError, match="must be 0"):
        make_backend("process", -1)
    with pytest.raises(ParameterError, match="--address is for --backend ray"):
        make_backend("process", 2, address="127.0.0.1:6379")


def test_an_unreachable_ray_address_fails_at_once():
    try:
        import ray  # noqa: F401
        needle = "cannot reach a Ray cluster at 127.0.0.1:1"
    except ImportError:
        needle = "needs Ray: pip install 'meeple\\[ray\\]'"
    with pytest.raises(ParameterError, match=needle):
        check_backend("ray", "127.0.0.1:1")  # nothing listens on port 1
    check_backend("process")  # no error


@pytest.mark.parametrize("jobs", [1, 2])
def test_imap_yields_every_task_once_with_its_number(jobs):
    tasks = [(x,) for x in range(20)]
    with make_backend("process", jobs) as backend:
        got = dict(backend.imap(_square, tasks))
    assert got == {i: i * i for i in range(20)}


def test_a_failing_task_raises_in_the_caller():
    with make_backend("process", 2) as backend, pytest.raises(ValueError, match="three"):
        list(backend.imap(_fail_on_three, [(x,) for x in range(8)]))


def test_chunk_sizes_keep_every_worker_busy():
    assert chunk_size(100_000, 2) == 500
    assert chunk_size(40, 2) == 1
    assert chunk_size(1000, 2) == 31  # 32 tasks
    assert chunk_size(100_000, 1) == 200 and chunk_size(10, 1) == 1


def test_one_and_two_jobs_give_the_same_results():
    game = load_game(GAME)
    one, _ = run_playtest(game, ["random", "heuristic"], 24, 3, 1)
    two, _ = run_playtest(game, ["random", "heuristic"], 24, 3, 2)
    assert [r["index"] for r in two] == list(range(24))
    assert _strip(one) == _strip(two)


def test_the_ray_backend_gives_the_same_stored_results_as_the_process_pool(tmp_path):
    pytest.importorskip("ray")
    game = load_game(GAME)
    config = run_config(game, ["random"], 40, 9)
    pool, _ = run_playtest(game, ["random"], 40, 9, 2,
                           store=RunStore.create(tmp_path / "pool", config))
    ray_results, _ = run_playtest(game, ["random"], 40, 9, 2, backend="ray",
                                  store=RunStore.create(tmp_path / "ray", config))
    assert _strip(ray_results) == _strip(pool)
