/* meeple.engine._speedups: two loops of the engine's seeded draws, in C.
 *
 * Each function makes exactly the generator calls that its Python counterpart makes, so a
 * seed gives the same result and leaves the stream in the same state (tests/test_engine_rng.py
 * compares them over many seeds and sizes). The Python module meeple.engine.rng calls them only
 * for a plain random.Random and a list, and falls back to its Python loops when this module was
 * not built (no C compiler at install time).
 *
 * Both read the generator's 32-bit outputs in batches: random.Random.getrandbits(32 * m) is
 * the generator's next m outputs, the first in the least significant 32 bits (CPython's
 * _random module, on every platform), which are the outputs that m calls of getrandbits(k)
 * with k <= 32 (each one output, shifted right by 32 - k), or m / 2 calls of random() (two
 * outputs each), would have taken one by one.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static PyObject *random_type;   /* random.Random */
static PyObject *str_getrandbits;

/* The next m 32-bit outputs of rng (exactly m: the stream then stands where m calls of
 * getrandbits(32) would leave it), into out. 0 on success, -1 with an exception set. */
static int
draw_words(PyObject *getrandbits, Py_ssize_t m, uint32_t *out, unsigned char *bytes)
{
    PyObject *k = PyLong_FromSsize_t(32 * m);
    if (k == NULL)
        return -1;
    PyObject *value = PyObject_CallOneArg(getrandbits, k);
    Py_DECREF(k);
    if (value == NULL)
        return -1;
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(
        value, bytes, 4 * m,
        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
    Py_DECREF(value);
    if (need < 0)
        return -1;
    if (need > 4 * m) {
        PyErr_SetString(PyExc_RuntimeError, "getrandbits returned more bits than asked");
        return -1;
    }
#else
    int failed = _PyLong_AsByteArray((PyLongObject *)value, bytes, (size_t)(4 * m), 1, 0);
    Py_DECREF(value);
    if (failed)
        return -1;
#endif
    for (Py_ssize_t i = 0; i < m; i++) {   /* little-endian bytes, whatever the host */
        const unsigned char *b = bytes + 4 * i;
        out[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16
                 | (uint32_t)b[3] << 24;
    }
    return 0;
}

static int
check_rng(PyObject *rng)
{
    if ((PyObject *)Py_TYPE(rng) != random_type) {
        PyErr_SetString(PyExc_TypeError, "a plain random.Random is needed");
        return -1;
    }
    return 0;
}

static int
bit_length(size_t n)
{
    int k = 0;
    while (n) {
        k++;
        n >>= 1;
    }
    return k;
}

PyDoc_STRVAR(shuffle_doc,
"shuffle(rng, items)\n--\n\n"
"Shuffle the list items in place as rng.shuffle(items) does on CPython 3.11-3.13 (Fisher-Yates\n"
"from the end, each position's index drawn by getrandbits(k) until it is in range): the same\n"
"order, the same stream afterwards. rng must be a plain random.Random (TypeError otherwise)\n"
"and items a list of at most 2**32 items (TypeError, OverflowError).");

static PyObject *
shuffle(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "shuffle(rng, items) takes two arguments");
        return NULL;
    }
    PyObject *rng = args[0], *items = args[1];
    if (check_rng(rng) < 0)
        return NULL;
    if (!PyList_CheckExact(items)) {
        PyErr_SetString(PyExc_TypeError, "shuffle needs a list");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(items);
    if (n < 2)
        Py_RETURN_NONE;
    if ((uint64_t)n > ((uint64_t)1 << 32)) {  /* each draw one 32-bit output */
        PyErr_SetString(PyExc_OverflowError, "shuffle takes at most 2**32 items");
        return NULL;
    }
    PyObject *getrandbits = PyObject_GetAttr(rng, str_getrandbits);
    if (getrandbits == NULL)
        return NULL;
    uint32_t *words = PyMem_Malloc(4 * (size_t)n);
    unsigned char *bytes = PyMem_Malloc(4 * (size_t)n);
    if (words == NULL || bytes == NULL) {
        PyMem_Free(words);
        PyMem_Free(bytes);
        Py_DECREF(getrandbits);
        return PyErr_NoMemory();
    }
    PyObject *result = Py_None;
    Py_ssize_t i = n - 1;
    int width = bit_length((size_t)n);  /* the bits of position i's draws: (i + 1).bit_length() */
    while (i > 0) {
        /* As many outputs as the positions left (one each if none is rejected); a rejected
         * draw leaves a position for the next batch. No Python code runs meanwhile (the
         * generator is random.Random's C code), so the list cannot change under us. */
        Py_ssize_t m = i;
        if (draw_words(getrandbits, m, words, bytes) < 0) {
            result = NULL;
            break;
        }
        for (Py_ssize_t p = 0; p < m; p++) {
            size_t j = words[p] >> (32 - width);
            if (j > (size_t)i)
                continue;  /* out of range: the next output is this position's next draw */
            PyObject *a = PyList_GET_ITEM(items, i);
            PyList_SET_ITEM(items, i, PyList_GET_ITEM(items, j));
            PyList_SET_ITEM(items, j, a);
            i--;
            if (((size_t)1 << (width - 1)) > (size_t)i + 1)
                width--;
        }
    }
    PyMem_Free(words);
    PyMem_Free(bytes);
    Py_DECREF(getrandbits);
    if (result == NULL)
        return NULL;
    Py_RETURN_NONE;
}

/* Sort n distinct 64-bit keys ascending, using tmp (n keys) as scratch: insertion sort of
 * runs of 16, then bottom-up merges (no comparison callback, as qsort would call). */
static void
sort_keys(uint64_t *keys, uint64_t *tmp, Py_ssize_t n)
{
    const Py_ssize_t run = 16;
    for (Py_ssize_t lo = 0; lo < n; lo += run) {
        Py_ssize_t hi = lo + run < n ? lo + run : n;
        for (Py_ssize_t i = lo + 1; i < hi; i++) {
            uint64_t x = keys[i];
            Py_ssize_t j = i;
            while (j > lo && keys[j - 1] > x) {
                keys[j] = keys[j - 1];
                j--;
            }
            keys[j] = x;
        }
    }
    uint64_t *from = keys, *to = tmp;
    for (Py_ssize_t width = run; width < n; width *= 2) {
        for (Py_ssize_t lo = 0; lo < n; lo += 2 * width) {
            Py_ssize_t mid = lo + width < n ? lo + width : n;
            Py_ssize_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            Py_ssize_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                to[k++] = from[a] < from[b] ? from[a++] : from[b++];
            while (a < mid)
                to[k++] = from[a++];
            while (b < hi)
                to[k++] = from[b++];
        }
        uint64_t *swap = from;
        from = to;
        to = swap;
    }
    if (from != keys)
        memcpy(keys, from, (size_t)n * sizeof(uint64_t));
}

#define MAX_GROUP 2048  /* positions fit in 11 bits */

PyDoc_STRVAR(keyed_order_doc,
"keyed_order(rng, groups)\n--\n\n"
"A new list: the items of each sequence of groups (a sequence of sequences), group after\n"
"group, each group sorted by a fresh rng.random() per item, drawn item by item in order\n"
"(ties keep the items' order): the concatenation of sorted(g, key=lambda _: rng.random()),\n"
"with the same stream afterwards. rng must be a plain random.Random (TypeError otherwise);\n"
"a group of more than 2048 items raises ValueError.");

static PyObject *
keyed_order(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "keyed_order(rng, groups) takes two arguments");
        return NULL;
    }
    PyObject *rng = args[0];
    if (check_rng(rng) < 0)
        return NULL;
    PyObject *outer = PySequence_Fast(args[1], "groups must be a sequence of sequences");
    if (outer == NULL)
        return NULL;
    Py_ssize_t ngroups = PySequence_Fast_GET_SIZE(outer);
    PyObject **inner = PyMem_Calloc(ngroups ? ngroups : 1, sizeof(PyObject *));
    PyObject *result = NULL, *getrandbits = NULL;
    uint32_t *words = NULL;
    unsigned char *bytes = NULL;
    uint64_t *keys = NULL;
    Py_ssize_t count = 0;
    if (inner == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t g = 0; g < ngroups; g++) {
        inner[g] = PySequence_Fast(PySequence_Fast_GET_ITEM(outer, g),
                                   "groups must be a sequence of sequences");
        if (inner[g] == NULL)
            goto done;
        Py_ssize_t size = PySequence_Fast_GET_SIZE(inner[g]);
        if (size > MAX_GROUP) {
            PyErr_Format(PyExc_ValueError, "a group of %zd items (at most %d)", size,
                         MAX_GROUP);
            goto done;
        }
        count += size;
    }
    result = PyList_New(count);
    if (result == NULL || count == 0)
        goto done;
    getrandbits = PyObject_GetAttr(rng, str_getrandbits);
    if (getrandbits == NULL)
        goto fail;
    words = PyMem_Malloc(8 * (size_t)count);
    bytes = PyMem_Malloc(8 * (size_t)count);
    keys = PyMem_Malloc(16 * (size_t)count);  /* the keys, then the sort's scratch */
    if (words == NULL || bytes == NULL || keys == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    if (draw_words(getrandbits, 2 * count, words, bytes) < 0)  /* two outputs a random() */
        goto fail;
    Py_ssize_t at = 0;
    for (Py_ssize_t g = 0; g < ngroups; g++) {
        Py_ssize_t size = PySequence_Fast_GET_SIZE(inner[g]);
        PyObject **src = PySequence_Fast_ITEMS(inner[g]);
        uint64_t *k = keys + at;
        for (Py_ssize_t p = 0; p < size; p++) {
            /* random() = ((w0 >> 5) * 2**26 + (w1 >> 6)) / 2**53: this 53-bit integer orders
             * the draws as the floats do, ties included */
            uint64_t draw = (uint64_t)(words[2 * (at + p)] >> 5) << 26
                            | (uint64_t)(words[2 * (at + p) + 1] >> 6);
            k[p] = draw << 11 | (uint64_t)p;
        }
        sort_keys(k, keys + count, size);
        for (Py_ssize_t p = 0; p < size; p++) {
            PyObject *item = src[k[p] & (MAX_GROUP - 1)];
            Py_INCREF(item);
            PyList_SET_ITEM(result, at + p, item);
        }
        at += size;
    }
    goto done;
fail:
    Py_CLEAR(result);
done:
    if (inner != NULL) {
        for (Py_ssize_t g = 0; g < ngroups; g++)
            Py_XDECREF(inner[g]);
        PyMem_Free(inner);
    }
    Py_DECREF(outer);
    Py_XDECREF(getrandbits);
    PyMem_Free(words);
    PyMem_Free(bytes);
    PyMem_Free(keys);
    return result;
}

static PyMethodDef methods[] = {
    {"shuffle", (PyCFunction)(void (*)(void))shuffle, METH_FASTCALL, shuffle_doc},
    {"keyed_order", (PyCFunction)(void (*)(void))keyed_order, METH_FASTCALL,
     keyed_order_doc},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "meeple.engine._speedups",
    "C loops of the engine's seeded draws (the same draws as meeple.engine.rng's Python).",
    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    PyObject *random_module = PyImport_ImportModule("random");
    if (random_module == NULL)
        return NULL;
    random_type = PyObject_GetAttrString(random_module, "Random");
    Py_DECREF(random_module);
    if (random_type == NULL)
        return NULL;
    str_getrandbits = PyUnicode_InternFromString("getrandbits");
    if (str_getrandbits == NULL)
        return NULL;
    return PyModule_Create(&module_def);
}
