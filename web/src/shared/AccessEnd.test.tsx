/** An access record's end date as the Access tabs, the review and the users list show it (issue 25). */
import { ACCESS_DATE_MESSAGES } from '@portal/contract';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AccessEnd } from './AccessEnd';

const show = (date: string | null, soon: boolean) =>
  render(
    <MantineProvider>
      <AccessEnd date={date} soon={soon} />
    </MantineProvider>,
  );

describe('AccessEnd', () => {
  it('shows the last day and marks one ending within the notice window', () => {
    show('2027-03-01', true);
    // In the spec's table format, as every other date on the screens beside it.
    expect(screen.getByText('03/01/2027')).toBeInTheDocument();
    expect(screen.getByText('03/01/2027').closest('time')).toHaveAttribute('datetime', '2027-03-01');
    expect(screen.getByText(ACCESS_DATE_MESSAGES.endsSoon)).toBeInTheDocument();
  });

  it('leaves a later end unmarked and says when there is none', () => {
    const { unmount } = show('2028-03-01', false);
    expect(screen.queryByText(ACCESS_DATE_MESSAGES.endsSoon)).not.toBeInTheDocument();
    unmount();
    show(null, false);
    expect(screen.getByText(ACCESS_DATE_MESSAGES.noEndDate)).toBeInTheDocument();
  });
});
