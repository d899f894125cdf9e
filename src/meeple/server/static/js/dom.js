// Building DOM nodes: text always goes in as text nodes (never markup), so anything a person
// typed (a name, a chat message) shows exactly as typed.

/** h('button', {class: 'x', onclick: f, 'aria-pressed': 'true'}, 'text', child, ...) */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else if (key === 'class') {
      node.className = value;
    } else if (key === 'dataset') {
      Object.assign(node.dataset, value);
    } else if (key in node && typeof value !== 'string') {
      node[key] = value;
    } else {
      node.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace the children of `node`. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** A key of the engine's view as a label: `hand_sizes` -> `Hand sizes`. */
export function label(key) {
  const text = String(key).replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Show an error to this person (a refused frame, a failed request) in `where` (an element, or
 * the id of one; the page's `#errors` box by default), dismissable and gone after 12 s; at most
 * three at once in one place. Returns the error's element (or null without a place for it).
 */
export function showError(text, where = 'errors') {
  const box = typeof where === 'string' ? document.getElementById(where) : where;
  if (!box) return null;
  const item = h('div', {class: 'error'}, h('span', {class: 'error-text'}, text),
    h('button', {type: 'button', class: 'dismiss', 'aria-label': 'Dismiss', onclick: () => item.remove()}, '×'));
  box.appendChild(item);
  while (box.querySelectorAll(':scope > .error').length > 3) box.querySelector(':scope > .error').remove();
  setTimeout(() => item.remove(), 12000);
  return item;
}

/** Link a board's own stylesheet, `static/boards/GAME.css`, when its module (`boards/GAME.js`)
 * says it has one (`export const stylesheet = true`), once; nothing is requested for a board
 * without one (a probe of a missing file is a 404 in the console). */
export function addBoardStyles(module, game) {
  if (!module || !module.stylesheet) return;
  const href = `/static/boards/${game}.css`;
  if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return;
  document.head.appendChild(h('link', {rel: 'stylesheet', href}));
}
