/**
 * The WCAG 2.2 AA checks of a screen that axe does not make, run by `shot` beside axe on every screen a
 * journey visits:
 * - focus visible (2.4.7, 2.4.11): no element that Tab reaches lies outside the viewport, inside a closed
 *   (moved off-screen) drawer or in a visually hidden box, where its focus cannot be seen;
 * - reflow (1.4.10): at 320 CSS px the page does not scroll sideways (and the focus check holds there too);
 * - text spacing (1.4.12): with WCAG's line, paragraph, letter and word spacing no text is cut;
 * - forced colours: with `forcedColors: 'active'` every control still shows its shape (a switch its track,
 *   a box its border) and the navigation's current entry stays marked.
 * Each check is one `page.evaluate` that waits for the layout with `requestAnimationFrame` in the page (the
 * 320 px one polled until the screen has laid itself out again); the viewport and the emulation are put back
 * afterwards, so the journey goes on as it was. About half a second a screen on a quiet machine.
 */
import { expect, type Page } from '@playwright/test';

/** WCAG 1.4.10's width of a phone in portrait at 400 % zoom of 1280 px. */
const REFLOW_WIDTH = 320;

/** What one pass over the page found wrong: each entry names the element and why. */
interface Findings {
  hiddenFocus: string[];
  sideways: string[];
  clipped: string[];
  forced: string[];
}

type Pass = 'focus' | 'reflow' | 'spacing' | 'forced';

/**
 * Runs in the page: waits two frames for the layout, then checks what `passes` name. Kept free of closures
 * (it is serialised into the page).
 */
async function inspect(passes: Pass[]): Promise<Findings> {
  await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  const found: Findings = { hiddenFocus: [], sideways: [], clipped: [], forced: [] };
  const describe = (el: Element): string => {
    const h = el as HTMLElement;
    const name =
      h.getAttribute('aria-label') ??
      (h.innerText || h.getAttribute('title') || h.getAttribute('placeholder') || '').trim().slice(0, 40);
    const cls = typeof h.className === 'string' ? h.className.split(/\s+/).slice(0, 2).join('.') : '';
    return `<${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}> '${name}'`;
  };
  const shown = (el: Element) =>
    el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true }) && !el.closest('[inert]');
  const FOCUSABLE =
    'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), ' +
    'textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"]):not([disabled])';
  const focusable = [...document.querySelectorAll(FOCUSABLE)].filter(
    (el) => shown(el) && (el as HTMLElement).tabIndex >= 0 && !el.closest('[aria-hidden="true"]'),
  );

  if (passes.includes('focus')) {
    const width = document.documentElement.clientWidth;
    for (const el of focusable) {
      // A skip link sits above the page until it has focus, when it moves into view (SecureLayout).
      if ((el as HTMLAnchorElement).hash && el.getAttribute('href')?.startsWith('#')) {
        if (getComputedStyle(el).position === 'absolute') continue;
      }
      const r = el.getBoundingClientRect();
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      let why = '';
      if (r.right <= 0 || r.left >= width) why = `outside the viewport (x = ${Math.round(r.left)})`;
      else if (r.bottom + window.scrollY <= 0) why = 'above the page';
      else {
        // A box that hides what overflows it (not one that scrolls: the browser scrolls focus into view).
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
          const s = getComputedStyle(a);
          if (s.clip !== 'auto' && s.clip !== '' && s.position === 'absolute') {
            why = `in a visually hidden box <${a.tagName.toLowerCase()}>`;
            break;
          }
          if (/hidden|clip/.test(s.overflowX + s.overflowY)) {
            const b = a.getBoundingClientRect();
            if (cx < b.left - 1 || cx > b.right + 1 || cy < b.top - 1 || cy > b.bottom + 1) {
              why = `cut off by <${a.tagName.toLowerCase()}> (${Math.round(b.width)} x ${Math.round(b.height)} px)`;
              break;
            }
          }
        }
      }
      if (why) found.hiddenFocus.push(`${describe(el)} ${why}`);
    }
  }

  if (passes.includes('reflow')) {
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1) {
      // The innermost elements reaching past the right edge: those that make the page wide.
      const beyond = (el: Element) => el.getBoundingClientRect().right > doc.clientWidth + 1 && shown(el);
      const wide = [...document.body.querySelectorAll('*')]
        .filter((el) => beyond(el) && ![...el.children].some(beyond))
        .slice(0, 5)
        .map(describe);
      // Text that overflows its own box (a long address without a break) widens the page while every
      // element's box stays inside it: named by the element holding the text.
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let n = walker.nextNode(); n && wide.length < 5; n = walker.nextNode()) {
        if (!n.textContent!.trim() || !n.parentElement || !shown(n.parentElement)) continue;
        range.selectNodeContents(n);
        if (range.getBoundingClientRect().right > doc.clientWidth + 1)
          wide.push(`text of ${describe(n.parentElement)}`);
      }
      found.sideways.push(
        `the page is ${doc.scrollWidth - doc.clientWidth} px wider than the screen: ${wide.join(', ')}`,
      );
    }
  }

  if (passes.includes('spacing')) {
    // WCAG 1.4.12's bookmarklet values.
    const style = document.createElement('style');
    style.textContent =
      '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }' +
      ' p { margin-bottom: 2em !important; }';
    document.head.append(style);
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
    for (const el of document.body.querySelectorAll('*')) {
      // A field's own text scrolls within it (the caret moves it); only what the page shows is judged.
      if (!el.childNodes.length || el.matches('input, textarea, select') || !shown(el)) continue;
      const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
      if (!hasText) continue;
      const s = getComputedStyle(el);
      const h = el as HTMLElement;
      if (h.clientWidth === 0 && h.clientHeight === 0) continue;
      const cutX = /hidden|clip/.test(s.overflowX) && h.scrollWidth > h.clientWidth + 1;
      const cutY = /hidden|clip/.test(s.overflowY) && h.scrollHeight > h.clientHeight + 1;
      // Visually hidden text (1 px boxes for screen readers) is not shown to be cut.
      if ((cutX || cutY) && h.clientWidth > 1 && h.clientHeight > 1) {
        found.clipped.push(
          `${describe(el)} (${h.scrollWidth} x ${h.scrollHeight} in ${h.clientWidth} x ${h.clientHeight})`,
        );
      }
    }
    style.remove();
  }

  if (passes.includes('forced')) {
    const drawn = (el: Element): boolean => {
      const s = getComputedStyle(el);
      const bordered = ['Top', 'Right', 'Bottom', 'Left'].some(
        (side) =>
          parseFloat(s.getPropertyValue(`border-${side.toLowerCase()}-width`)) > 0 &&
          !['none', 'hidden'].includes(s.getPropertyValue(`border-${side.toLowerCase()}-style`)),
      );
      return bordered || s.forcedColorAdjust === 'none' || !!el.querySelector('svg, img');
    };
    for (const el of focusable) {
      const h = el as HTMLInputElement;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const box = ['checkbox', 'radio'].includes(h.type) ? h : null;
      if (box) {
        // A box or switch is drawn by the input itself or by the element beside it (Mantine's track).
        const shape = getComputedStyle(h).opacity === '0' ? h.nextElementSibling : h;
        if (!shape || (!drawn(shape) && ![...shape.querySelectorAll('*')].some(drawn))) {
          found.forced.push(`${describe(el)}: the ${h.role === 'switch' ? 'switch' : h.type} has no visible shape`);
        }
      }
    }
    for (const current of document.querySelectorAll('nav [aria-current="page"]')) {
      if (!shown(current)) continue;
      const peer = [...(current.parentElement?.children ?? [])].find(
        (c) => c !== current && c.tagName === current.tagName && !c.hasAttribute('aria-current'),
      );
      if (!peer) continue;
      const a = getComputedStyle(current);
      const b = getComputedStyle(peer);
      const marks = ['border-left-width', 'border-left-style', 'outline-style', 'font-weight', 'text-decoration-line'];
      if (marks.every((p) => a.getPropertyValue(p) === b.getPropertyValue(p))) {
        found.forced.push(`${describe(current)}: the current page in the navigation looks like the others`);
      }
    }
  }
  return found;
}

/**
 * Fails the test when the screen breaks a WCAG 2.2 AA criterion axe does not judge (see the file's comment):
 * hidden focus at the journey's viewport and at 320 px, sideways scrolling at 320 px, text cut by WCAG's
 * text spacing, and controls or the current navigation entry lost in forced colours. Puts the viewport and
 * the colour emulation back as they were.
 */
export async function expectBeyondAxe(page: Page, screen: string): Promise<void> {
  const where = `'${screen}' (${page.url()})`;
  const here = await page.evaluate(inspect, ['focus'] satisfies Pass[]);
  expect(here.hiddenFocus, `focusable but not visible on ${where}`).toEqual([]);

  const viewport = page.viewportSize();
  try {
    if (viewport && viewport.width !== REFLOW_WIDTH) await page.setViewportSize({ ...viewport, width: REFLOW_WIDTH });
    // The screen lays itself out again for the new width over a few frames (tables measure themselves
    // with a ResizeObserver and render again): polled until it holds, failing with what was found last.
    await expect
      .poll(
        async () => {
          const narrow = await page.evaluate(inspect, ['focus', 'reflow'] satisfies Pass[]);
          return [...narrow.sideways, ...narrow.hiddenFocus.map((f) => `focusable but not visible: ${f}`)];
        },
        // Polled often at first: the layout usually holds within a few frames.
        {
          message: `at 320 px, sideways scrolling or focusable elements out of sight on ${where}`,
          intervals: [25, 50, 100, 250],
        },
      )
      .toEqual([]);
    const spaced = await page.evaluate(inspect, ['spacing'] satisfies Pass[]);
    expect(spaced.clipped, `text cut with WCAG text spacing at 320 px on ${where}`).toEqual([]);
  } finally {
    if (viewport && viewport.width !== REFLOW_WIDTH) await page.setViewportSize(viewport);
  }

  await page.emulateMedia({ forcedColors: 'active' });
  try {
    const forced = await page.evaluate(inspect, ['forced'] satisfies Pass[]);
    expect(forced.forced, `lost in forced colours on ${where}`).toEqual([]);
  } finally {
    await page.emulateMedia({ forcedColors: 'none' });
  }
}
