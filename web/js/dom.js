// A few DOM helpers shared by the views. Text always goes in as text (never as HTML), so
// names and messages from the server cannot inject markup.

/**
 * Creates an element: `el('button', {class: 'x', dataset: {action: 'pass'}, onclick}, 'Pass')`.
 * Attributes named `on…` with a function become listeners; `dataset` sets data-* attributes;
 * `class` may be a string or an array; children may be strings, nodes, arrays or null.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') {
      node.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
    } else if (key === 'dataset') {
      for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) node.dataset[k] = v;
    } else if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else if (value === true) {
      node.setAttribute(key, '');
    } else {
      node.setAttribute(key, String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces the children of `node`. */
export function replace(node, ...children) {
  node.replaceChildren();
  append(node, children);
}

/** A signed number: +5, −3, 0. */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return '0';
}

/** A time of day or date from Unix milliseconds, in the reader's locale. */
export function when(ms) {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString();
}
