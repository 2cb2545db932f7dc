/**
 * The theme's accessibility promises (issue 9): every palette colour Mantine derives its variants from reads at
 * WCAG AA 4.5:1 as text on white, on its own light tint and under white text; dimmed, placeholder and error
 * text do too; every modal's close button has an accessible name.
 */
import { Button, DEFAULT_THEME, Modal } from '@mantine/core';
import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../testing/render';
import { accessibleShade, contrast, cssVariablesResolver, LIGHT_HOVER, onWhite, PRIMARY_SHADE } from './palette';
import { theme } from './theme';

const merged = { ...DEFAULT_THEME, ...theme, colors: DEFAULT_THEME.colors } as typeof DEFAULT_THEME;

describe('palette', () => {
  const names = Object.keys(DEFAULT_THEME.colors).filter((n) => n !== 'dark' && n !== 'gray');

  it.each(names)('%s passes 4.5:1 as text on white, on its light tint and under white text', (name) => {
    const vars = cssVariablesResolver(merged).light as Record<string, string>;
    const text = vars[`--mantine-color-${name}-light-color`]!;
    expect(text).toBe(accessibleShade(DEFAULT_THEME.colors[name]!));
    expect(contrast(text, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(vars[`--mantine-color-${name}-filled`]!, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    // The light variant's background at its darkest (hovered).
    expect(contrast(text, onWhite(DEFAULT_THEME.colors[name]![PRIMARY_SHADE], LIGHT_HOVER))).toBeGreaterThanOrEqual(
      4.5,
    );
  });

  it('dimmed, placeholder and error text pass 4.5:1 on white and on gray.0', () => {
    const vars = cssVariablesResolver(merged).light as Record<string, string>;
    for (const key of ['--mantine-color-dimmed', '--mantine-color-placeholder', '--mantine-color-error']) {
      expect(contrast(vars[key]!, '#ffffff'), key).toBeGreaterThanOrEqual(4.5);
      expect(contrast(vars[key]!, DEFAULT_THEME.colors.gray[0]), key).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('modals', () => {
  it("a modal's close button is named 'Close'", async () => {
    const { user } = renderRoute({ path: '/', url: '/', element: <Opener /> });
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved Changes' });
    expect(dialog.querySelector('button[aria-label="Close"]')).not.toBeNull();
  });
});

function Opener() {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button onClick={() => setOpened(true)}>Open</Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Unsaved Changes">
        You have unsaved changes on this page.
      </Modal>
    </>
  );
}
