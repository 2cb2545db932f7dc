import {
  CloseButton,
  type CloseButtonProps,
  createTheme,
  DEFAULT_THEME,
  Input,
  type ModalProps,
  type NotificationProps,
} from '@mantine/core';
import { PRIMARY_SHADE } from './palette';
import classes from './theme.module.css';

/**
 * The app's Mantine theme: the primary shade whose colours pass WCAG 2.2 AA contrast (the rest of the
 * palette is in `palette.ts`, passed to MantineProvider as its CSS variables resolver), one heading size per
 * level, a focus ring on text inputs, an accessible name on every close button, badges that wrap, switches
 * with an outline, and the form conventions.
 */

export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: PRIMARY_SHADE, dark: PRIMARY_SHADE },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  // Mantine 9 moved these defaults (radius md, medium weight 600); the app keeps the look it was checked in
  // (wider labels would also press the many-column tables against the 1280 px no-sideways-scroll rule).
  defaultRadius: 'sm',
  fontWeights: { medium: '500' },
  focusRing: 'auto',
  // WCAG 2.3.3: no transitions for people who ask their system for reduced motion.
  respectReducedMotion: true,
  // One size per heading level on every page: h1 the page title, h2 its sections, h3 within a section.
  headings: {
    sizes: {
      h1: {
        fontSize: DEFAULT_THEME.headings.sizes.h2.fontSize,
        lineHeight: DEFAULT_THEME.headings.sizes.h2.lineHeight,
      },
      h2: {
        fontSize: DEFAULT_THEME.headings.sizes.h4.fontSize,
        lineHeight: DEFAULT_THEME.headings.sizes.h4.lineHeight,
      },
      h3: {
        fontSize: DEFAULT_THEME.headings.sizes.h5.fontSize,
        lineHeight: DEFAULT_THEME.headings.sizes.h5.lineHeight,
      },
    },
  },
  components: {
    // 000 §2 Form note 'All fields are required unless indicated.': optional fields say so in their label;
    // required ones keep the required attribute without a visual asterisk (which would also enter their names).
    ...Object.fromEntries(
      ['TextInput', 'PasswordInput', 'Textarea', 'Select', 'MultiSelect', 'CheckboxGroup'].map((name) => [
        name,
        { defaultProps: { withAsterisk: false } },
      ]),
    ),
    Input: Input.extend({ classNames: { input: classes.input } }),
    // Every close button (modals, notifications, alerts) has an accessible name (WCAG 4.1.2).
    // (CloseButtonProps does not declare aria attributes; CloseButton passes them on to its button.)
    CloseButton: CloseButton.extend({ defaultProps: { 'aria-label': 'Close' } as Partial<CloseButtonProps> }),
    // Plain objects, not `Modal.extend(...)`: naming the components here would pull Modal and Notification
    // into the sign-in page's bundle (issue 14 budget); both load with the screens that use them.
    Notification: { classNames: { description: classes.notificationDescription } } satisfies {
      classNames: NotificationProps['classNames'];
    },
    // Plain objects for the same reason: badges, buttons and pills wrap instead of cutting words, switches keep
    // their outline (theme.module.css).
    Badge: { classNames: { root: classes.badgeRoot, label: classes.badgeLabel } },
    Button: { classNames: { root: classes.buttonRoot, inner: classes.buttonInner, label: classes.buttonLabel } },
    Pill: { classNames: { root: classes.pillRoot, label: classes.pillLabel } },
    Switch: { classNames: { track: classes.switchTrack, thumb: classes.switchThumb } },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } } satisfies {
      defaultProps: Partial<ModalProps>;
    },
  },
});
