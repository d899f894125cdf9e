// The after-game survey (docs/server.md, "Human playtests"): five optional questions for a
// person who held a seat, sent with the seat's token; answering again replaces the answers.
import {api} from './api.js';
import {h} from './dom.js';

const LENGTHS = ['too short', 'about right', 'too long'];
const AGAIN = ['yes', 'maybe', 'no'];

function choices(name, legend, options, labels = options) {
  return h('fieldset', {class: `survey-${name}`}, h('legend', {}, legend),
    options.map((value, i) => h('label', {class: 'check'},
      h('input', {type: 'radio', name: `survey-${name}`, value: String(value)}), ` ${labels[i]}`)));
}

function picked(form, name) {
  const box = form.querySelector(`input[name="survey-${name}"]:checked`);
  return box ? box.value : null;
}

function setPicked(form, name, value) {
  if (value === null || value === undefined) return;
  const box = form.querySelector(`input[name="survey-${name}"][value="${CSS.escape(String(value))}"]`);
  if (box) box.checked = true;
}

/**
 * The survey form for `tableId`, answered with the seat's `token`: a form node that fills
 * itself with earlier answers and says when they are saved (or why not).
 */
export function surveyForm(tableId, token) {
  const status = h('p', {class: 'survey-status', role: 'status'});
  const confusing = h('textarea', {id: 'survey-confusing', rows: 2, maxlength: 500});
  const comment = h('textarea', {id: 'survey-comment', rows: 3, maxlength: 2000});
  const form = h('form', {class: 'survey', 'aria-label': 'After-game survey'},
    h('h3', {}, 'How was it? (optional, for the designer)'),
    choices('fun', 'Fun', [1, 2, 3, 4, 5], ['1 dull', '2', '3', '4', '5 great']),
    choices('length', 'The game felt', LENGTHS),
    h('label', {for: 'survey-confusing'}, 'What was confusing?'), confusing,
    choices('again', 'Would you play again?', AGAIN),
    h('label', {for: 'survey-comment'}, 'Anything else'), comment,
    h('button', {type: 'submit', class: 'primary'}, 'Send answers'), status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const fun = picked(form, 'fun');
    const answers = {
      fun: fun === null ? null : Number(fun), length: picked(form, 'length'),
      confusing: confusing.value.trim() || null, again: picked(form, 'again'),
      comment: comment.value.trim() || null,
    };
    status.textContent = 'Sending…';
    try {
      await api.answer(tableId, token, answers);
      status.textContent = 'Thank you: your answers are saved.';
    } catch (error) {
      status.textContent = `Not saved: ${error.message}`;
    }
  });
  api.survey(tableId, token).then((earlier) => {
    setPicked(form, 'fun', earlier.fun);
    setPicked(form, 'length', earlier.length);
    setPicked(form, 'again', earlier.again);
    if (earlier.confusing) confusing.value = earlier.confusing;
    if (earlier.comment) comment.value = earlier.comment;
  }).catch(() => {});
  return form;
}
