// Light or dark: the system's choice (prefers-color-scheme) unless the user picked one with the
// header's toggle, which this tab's origin remembers in localStorage (a display preference, no data).
import { h } from './widgets.js';

const KEY = 'restwell.theme';
const NEXT = { auto: 'light', light: 'dark', dark: 'auto' };
const LABEL = { auto: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' };

/** The remembered choice: `auto`, `light` or `dark`. */
export function themeChoice() {
  const saved = localStorage.getItem(KEY);
  return saved === 'light' || saved === 'dark' ? saved : 'auto';
}

/** Applies the remembered choice to the page (`data-theme` on <html>; none follows the system). */
export function applyTheme() {
  const choice = themeChoice();
  if (choice === 'auto') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.dataset.theme = choice;
}

/** The header's toggle: system → light → dark → system, remembered. */
export function themeToggle() {
  const button = h('button', { type: 'button', class: 'small theme-toggle', id: 'theme-toggle', 'aria-label': `${LABEL[themeChoice()]} (change)` }, LABEL[themeChoice()]);
  button.addEventListener('click', () => {
    const next = NEXT[themeChoice()];
    if (next === 'auto') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, next);
    applyTheme();
    button.textContent = LABEL[next];
    button.setAttribute('aria-label', `${LABEL[next]} (change)`);
  });
  return button;
}
