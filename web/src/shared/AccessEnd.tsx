import { Badge, Group, Text } from '@mantine/core';
import { ACCESS_DATE_MESSAGES } from '@portal/contract';
import { formatDay } from './format';

/**
 * An access record's end date (issue 25 time-bound access): the last day, or 'No end date'; marked 'Ends soon'
 * when the server says it ends within the notice window (`accessEndsSoon`). Shown by the Access tabs, the review
 * screen and the users list.
 */
export function AccessEnd({ date, soon, size = 'sm' }: { date: string | null; soon: boolean; size?: 'xs' | 'sm' }) {
  if (!date) {
    return (
      <Text size={size} c="dimmed" span>
        {ACCESS_DATE_MESSAGES.noEndDate}
      </Text>
    );
  }
  return (
    <Group gap={6} wrap="nowrap" component="span">
      <Text size={size} span>
        <time dateTime={date}>{formatDay(date)}</time>
      </Text>
      {soon && (
        <Badge size="xs" color="orange" variant="light">
          {ACCESS_DATE_MESSAGES.endsSoon}
        </Badge>
      )}
    </Group>
  );
}
