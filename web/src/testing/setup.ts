/**
 * Set-up of the `web` vitest project (jsdom): jest-dom matchers, a clean DOM, notification store and stubs after every test,
 * and the browser APIs Mantine expects that jsdom lacks (matchMedia, ResizeObserver, scrollIntoView,
 * document.fonts).
 */
import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// findBy* and waitFor give up after this long (testing-library's default is 1 s). A wait is a deadline for
// something that must happen, never a speed check: on a busy machine a render may take seconds, and the
// wait still returns as soon as its condition holds (speed belongs to npm run bench).
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  // Mantine keeps notifications in a module-level store; one test's must not show in the next.
  notifications.clean();
  notifications.cleanQueue();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

// The reader asks for reduced motion, as the journeys' browser does (tests/playwright.config.ts): the theme
// then skips its transitions (respectReducedMotion), so a modal's content is visible once it is in the
// document rather than after a 200 ms fade that a test may or may not outlast. Other queries match nothing.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: /prefers-reduced-motion:\s*reduce/.test(query),
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }),
});

class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = window.ResizeObserver ?? NoResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => {};

// Mantine 9's autosizing Textarea re-measures when web fonts finish loading (document.fonts' events).
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: Object.assign(new EventTarget(), { ready: Promise.resolve(), status: 'loaded' }),
  });
}
