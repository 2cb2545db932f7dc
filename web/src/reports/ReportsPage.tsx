import { Button, Group, Paper, Radio, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import {
  ACCESS_REQUEST_MESSAGES,
  REQUEST_STATUS_LABELS,
  REQUEST_STATUSES,
  translateFieldErrors,
  type AccessReportQuery,
} from '@portal/contract';
import { useState, type FormEvent } from 'react';
import { ApiError, type DownloadedFile } from '../lib/apiClient';
import { SUPPORT_EMAIL } from '../lib/config';
import { useHasPermissions } from '../lib/sessionQueries';
import { MessageAlert, type PageMessage } from '../shared/ErrorAlert';
import { usePageTitle } from '../shared/usePageTitle';
import { saveDownloadedFile } from '../lib/saveFile';
import { useDownloadAccessReport } from './api/downloadAccessReport';
import { useRequestCountsByStatus } from './api/getRequestsByStatus';

type Who = 'all' | 'true' | 'false';

const LABELS = { startDate: 'Start Date', endDate: 'End Date', proxyRequests: 'Requests' } as const;

/** Saves the report under its server-given name. */
const saveFile = (file: DownloadedFile) => saveDownloadedFile(file, 'access-modification-requests.csv');

/**
 * Reports (/app/reports, 001 §2.11): downloads the access-modification report (GET .../report with startDate,
 * endDate and proxyRequests) as the CSV file the server names. 403 and 422 are shown as 001 §8 words them
 * (the 422's field errors under their fields). Staff with READ_USERS also see how many requests are in each
 * status (GET .../status/{status}).
 */
export function ReportsPage() {
  usePageTitle('Reports');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [who, setWho] = useState<Who>('all');
  const [errors, setErrors] = useState<Partial<Record<keyof typeof LABELS, string>>>({});
  const [message, setMessage] = useState<PageMessage | null>(null);
  const canRead = useHasPermissions('READ_USERS');
  const counts = useRequestCountsByStatus(canRead);

  const download = useDownloadAccessReport({
    mutationConfig: {
      onMutate: () => {
        setMessage(null);
        setErrors({});
      },
      onSuccess: (file) => {
        const name = saveFile(file);
        setMessage({ kind: 'success', text: `Report downloaded: ${name}` });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 403) {
          setMessage({ kind: 'error', text: ACCESS_REQUEST_MESSAGES.reportForbidden(SUPPORT_EMAIL) });
          return;
        }
        if (error instanceof ApiError && error.status === 422) {
          const next: typeof errors = {};
          const other: string[] = [];
          for (const [key, reasons] of Object.entries(error.fieldErrors)) {
            if (key in LABELS)
              next[key as keyof typeof LABELS] = translateFieldErrors(LABELS[key as keyof typeof LABELS], reasons);
            else other.push(translateFieldErrors(key, reasons));
          }
          setErrors(next);
          setMessage({ kind: 'error', text: ACCESS_REQUEST_MESSAGES.reportFailed, details: other });
          return;
        }
        setMessage({
          kind: 'error',
          text: ACCESS_REQUEST_MESSAGES.reportFailed,
          details: error instanceof ApiError && error.status === 0 ? [error.message] : [],
        });
      },
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query: AccessReportQuery = {
      startDate: startDate || undefined,
      endDate: endDate || undefined,
      proxyRequests: who === 'all' ? undefined : who,
    };
    download.mutate(query);
  };

  return (
    <Stack gap="lg">
      <Title order={1}>Reports</Title>
      <MessageAlert message={message} onClose={() => setMessage(null)} />
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="access-report-title">
        <form onSubmit={submit} noValidate aria-label="Access-modification report">
          <Stack gap="md">
            <div>
              <Title order={2} size="h3" id="access-report-title">
                Access-Modification Requests
              </Title>
              <Text size="sm" c="dimmed" mt={4}>
                A CSV file with one row per request: the user it is for, who submitted it (the user or a proxy), request
                type and status, dates, the requested study roles with their LAOs, AOs, studies and systems, comments
                and the external ticket number. Leave the dates empty for all requests.
              </Text>
            </div>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" maw={520}>
              <TextInput
                type="date"
                label={`${LABELS.startDate} (optional)`}
                description="Submitted on or after"
                value={startDate}
                onChange={(e) => setStartDate(e.currentTarget.value)}
                error={errors.startDate}
              />
              <TextInput
                type="date"
                label={`${LABELS.endDate} (optional)`}
                description="Submitted on or before"
                value={endDate}
                onChange={(e) => setEndDate(e.currentTarget.value)}
                error={errors.endDate}
              />
            </SimpleGrid>
            <Radio.Group
              label={LABELS.proxyRequests}
              value={who}
              onChange={(v) => setWho(v as Who)}
              error={errors.proxyRequests}
            >
              <Stack gap={6} mt="xs">
                <Radio value="all" label="All requests" />
                <Radio value="false" label="Submitted by the users themselves" />
                <Radio value="true" label="Submitted by proxies for other users" />
              </Stack>
            </Radio.Group>
            <Group>
              <Button type="submit" loading={download.isPending}>
                Download Report
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {canRead && (
        <Paper withBorder p="md" radius="md" component="section" aria-labelledby="status-counts-title">
          <Title order={2} size="h3" id="status-counts-title" mb="sm">
            Requests by Status
          </Title>
          <Table maw={420} withTableBorder={false} aria-labelledby="status-counts-title">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Request Status</Table.Th>
                <Table.Th scope="col" ta="right">
                  Requests
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {REQUEST_STATUSES.map((status, i) => {
                const count = counts[i]!;
                return (
                  <Table.Tr key={status}>
                    <Table.Td>{REQUEST_STATUS_LABELS[status]}</Table.Td>
                    <Table.Td ta="right">
                      {count.error ? (
                        <Text size="sm" c="red" role="alert">
                          {ACCESS_REQUEST_MESSAGES.loadStatusFailed(status)}
                        </Text>
                      ) : count.data === undefined ? (
                        '…'
                      ) : (
                        count.data
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
    </Stack>
  );
}
