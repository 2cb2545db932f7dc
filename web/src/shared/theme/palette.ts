import { alpha, type CSSVariablesResolver, darken, luminance, type MantineColorsTuple } from '@mantine/core';

/**
 * The light colour scheme's colours, chosen for WCAG 2.2 AA contrast (1.4.3 text 4.5:1, 1.4.11 controls
 * 3:1) on every screen: Mantine's default light palette fails it (gray.6 dimmed text 3.3:1, blue.6 buttons
 * 3.6:1, green badges 2.1:1, red.6 errors 3.3:1, gray.5 placeholders 2.1:1). Components keep writing
 * `color="green"`, `c="dimmed"`, `variant="light"`; the CSS variables behind them are replaced here.
 */

/** Shade used for filled backgrounds, outline and light-variant text (blue.8 is 5.0:1 on white). */
export const PRIMARY_SHADE = 8;
/** Opacity of the light variant's hover background, its darkest tint. */
export const LIGHT_HOVER = 0.14;
/**
 * The target: 4.5:1 with room for the surfaces a badge or alert sits on besides white (striped and hovered
 * table rows, gray.0 / gray.1), which darken the tint a little more.
 */
const TEXT_CONTRAST = 5;

/** WCAG contrast ratio of two colours Mantine can parse. */
export function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** `over` with `opacity` painted on white, as a hex colour (the light variant's background). */
export function onWhite(over: string, opacity: number): string {
  const n = parseInt(over.slice(1), 16);
  const mix = (c: number) => Math.round(255 - (255 - c) * opacity);
  const rgb = [mix(n >> 16), mix((n >> 8) & 255), mix(n & 255)];
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The colour of `shades` that reads at 5:1 both as text on its own light tint and under white text: the
 * primary shade when it does, otherwise the shade darkened in 4 % steps (green, yellow, orange, teal…).
 */
export function accessibleShade(shades: MantineColorsTuple): string {
  const tint = onWhite(shades[PRIMARY_SHADE], LIGHT_HOVER);
  let color = shades[PRIMARY_SHADE];
  for (let step = 1; contrast(color, tint) < TEXT_CONTRAST && step <= 20; step++) {
    color = darken(shades[PRIMARY_SHADE], step * 0.04);
  }
  return color;
}

/** The light colour scheme's variables for every palette colour, plus dimmed, placeholder, error, anchor. */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {
    // gray.7 (8.2:1): dimmed helper text stays lighter than body text but readable.
    '--mantine-color-dimmed': theme.colors.gray[7],
    // Date and select placeholders: 5.4:1, still distinct from entered text (black).
    '--mantine-color-placeholder': '#636a71',
    '--mantine-color-error': accessibleShade(theme.colors.red),
    '--mantine-color-anchor': accessibleShade(theme.colors[theme.primaryColor] ?? theme.colors.blue),
  };
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (!shades || name === 'dark' || name === 'gray') continue;
    const color = accessibleShade(shades);
    Object.assign(light, {
      [`--mantine-color-${name}-text`]: color,
      [`--mantine-color-${name}-filled`]: color,
      [`--mantine-color-${name}-filled-hover`]: darken(color, 0.12),
      [`--mantine-color-${name}-light`]: alpha(shades[PRIMARY_SHADE], 0.1),
      [`--mantine-color-${name}-light-hover`]: alpha(shades[PRIMARY_SHADE], LIGHT_HOVER),
      [`--mantine-color-${name}-light-color`]: color,
      [`--mantine-color-${name}-outline`]: color,
    });
  }
  return { variables: {}, light, dark: {} };
};
