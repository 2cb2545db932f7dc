import {
  Alert,
  Anchor,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  ACCESS_REVIEW_LIMITS,
  ACCESS_REVIEW_MESSAGES,
  ACCESS_REVIEW_REVIEWERS,
  ACCESS_REVIEW_REVIEWER_LABELS,
  MESSAGES,
  type AccessReviewDecision,
  type AccessReviewReviewers,
} from '@portal/contract';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { CountedTextInput } from '../../shared/CountedText';
import { LoadError, MessageAlert, type PageMessage } from '../../shared/ErrorAlert';
import { siteOptions, useSites, useStudyRoles, useSystems } from '../../shared/referenceData';
import { FIELDS_NEED_ATTENTION, focusFirstInvalid } from '../../shared/invalidFields';
import { usePageTitle } from '../../shared/usePageTitle';
import { useCreateCampaign } from '../api/campaigns';
import { useCreateSchedule } from '../api/schedules';
import { bodyOf, failureOf, initialValues, type CampaignFormValues } from './campaignForm';

const TITLE = 'New Access Review Campaign';
/** The scope lists: typed into, cleared, a chosen entry leaves the options. */
const SCOPE_SELECT = { searchable: true, clearable: true, hidePickedOptions: true } as const;

/**
 * New campaign /app/access-review-campaigns/new (issue 25, ADMIN): the name; the scope (systems, study roles,
 * LAOs from the reference lists the request forms use; all empty = all access); who reviews; the duration,
 * the reminder interval (0 = none) and the default of undecided items (a warning when Remove); once (a
 * campaign starts now and its page opens) or recurring every N days (the list of recurring reviews opens).
 * A 422 shows beside its fields.
 */
export function NewCampaignPage() {
  usePageTitle(TITLE);
  const navigate = useNavigate();
  const systems = useSystems();
  const roles = useStudyRoles();
  const sites = useSites();
  const laos = useMemo(() => siteOptions(sites.data ?? []).laos, [sites.data]);
  const [values, setValues] = useState<CampaignFormValues>(initialValues);
  const [errors, setErrors] = useState<Partial<Record<keyof CampaignFormValues, string>>>({});
  const [message, setMessage] = useState<PageMessage | null>(null);
  const set = <K extends keyof CampaignFormValues>(key: K, value: CampaignFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  /** A field's value, change handler and server error. */
  const bind = <K extends keyof CampaignFormValues>(key: K) => ({
    value: values[key],
    onChange: (v: CampaignFormValues[K]) => set(key, v),
    error: errors[key],
  });
  /** A number of days within the contract's limits. */
  const days = (key: 'durationDays' | 'reminderEveryDays' | 'everyDays') => ({
    min: ACCESS_REVIEW_LIMITS[key].min,
    max: ACCESS_REVIEW_LIMITS[key].max,
    allowDecimal: false,
    ...bind(key),
  });

  const onError = (failed: string) => (error: unknown) => {
    const { fields, details } = failureOf(error);
    setErrors(fields);
    setMessage({ kind: 'error', text: failed, details });
  };
  const campaign = useCreateCampaign({
    mutationConfig: {
      onSuccess: (c) =>
        navigate(paths.app.accessReviewCampaigns.one.href(c.id), {
          state: { message: ACCESS_REVIEW_MESSAGES.started(c.name) },
        }),
      onError: onError(ACCESS_REVIEW_MESSAGES.saveCampaignFailed),
    },
  });
  const schedule = useCreateSchedule({
    mutationConfig: {
      onSuccess: (s) =>
        navigate(paths.app.accessReviewCampaigns.href('recurring'), {
          state: { message: ACCESS_REVIEW_MESSAGES.scheduled(s.name) },
        }),
      onError: onError(ACCESS_REVIEW_MESSAGES.saveScheduleFailed),
    },
  });
  const pending = campaign.isPending || schedule.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    setErrors({});
    if (!values.name.trim()) {
      setErrors({ name: 'Name is required' });
      setMessage({ kind: 'error', text: FIELDS_NEED_ATTENTION });
      focusFirstInvalid(event as FormEvent<HTMLFormElement>);
      return;
    }
    const { everyDays: every, ...body } = bodyOf(values);
    if (values.recurring) schedule.mutate({ ...body, everyDays: every });
    else campaign.mutate(body);
  };

  const failed = [systems, roles, sites].some((q) => q.isError);
  return (
    <Stack gap="md" maw={820}>
      <Anchor component={Link} to={paths.app.accessReviewCampaigns.href()} size="sm">
        &larr; Back to Access Review Campaigns
      </Anchor>
      <Title order={1}>{TITLE}</Title>
      <MessageAlert message={message} onClose={() => setMessage(null)} />
      {failed && (
        <LoadError
          text="Problem loading systems, study roles or LAOs."
          onRetry={() => [systems, roles, sites].forEach((q) => void q.refetch())}
        />
      )}
      <Paper withBorder p="md">
        <form onSubmit={submit} noValidate aria-label={TITLE}>
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              {MESSAGES.formNote}
            </Text>
            <CountedTextInput
              label="Name"
              required
              value={values.name}
              maxLength={ACCESS_REVIEW_LIMITS.name}
              onChange={(e) => set('name', e.currentTarget.value)}
              error={errors.name}
            />
            <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
              <Text component="legend" fw={600} size="sm">
                Scope
              </Text>
              <Text size="xs" c="dimmed">
                Active access records matching every list that is filled in (any entry of a list). Leave all three empty
                to review all access.
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                <MultiSelect
                  label="Systems"
                  placeholder="Any system"
                  data={(systems.data ?? []).map((s) => ({ value: String(s.id), label: s.systemName }))}
                  nothingFoundMessage="No matching systems"
                  {...SCOPE_SELECT}
                  {...bind('systemAccessIds')}
                />
                <MultiSelect
                  label="Study Roles"
                  placeholder="Any study role"
                  data={[...new Set((roles.data ?? []).map((r) => r.roleName))]}
                  nothingFoundMessage="No matching study roles"
                  {...SCOPE_SELECT}
                  {...bind('roleNames')}
                />
                <MultiSelect
                  label="LAOs"
                  placeholder="Any LAO"
                  data={laos}
                  nothingFoundMessage="No matching LAOs"
                  {...SCOPE_SELECT}
                  {...bind('laoIds')}
                />
              </SimpleGrid>
            </Stack>
            <Radio.Group
              label="Reviewers"
              value={values.reviewers}
              onChange={(v) => set('reviewers', v as AccessReviewReviewers)}
              error={errors.reviewers}
            >
              <Stack gap={6} mt="xs">
                {ACCESS_REVIEW_REVIEWERS.map((r) => (
                  <Radio key={r} value={r} label={ACCESS_REVIEW_REVIEWER_LABELS[r]} />
                ))}
              </Stack>
            </Radio.Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <NumberInput
                label="Duration (days)"
                description="Reviewers decide until the deadline, this many days from the start."
                {...days('durationDays')}
              />
              <NumberInput
                label="Reminder every (days)"
                description="Reviewers with undecided items are reminded; 0 sends no reminders."
                {...days('reminderEveryDays')}
              />
            </SimpleGrid>
            <Radio.Group
              label="Undecided items at the deadline"
              value={values.defaultDecision}
              onChange={(v) => set('defaultDecision', v as AccessReviewDecision)}
              error={errors.defaultDecision}
            >
              <Group gap="lg" mt="xs">
                <Radio value="KEEP" label="Keep the access" />
                <Radio value="REMOVE" label="Remove the access" />
              </Group>
            </Radio.Group>
            {values.defaultDecision === 'REMOVE' && (
              <Alert color="orange" title="Undecided access will be removed" role="note">
                Every item nobody decided by the deadline loses its access when the campaign closes.
              </Alert>
            )}
            <Radio.Group
              label="Runs"
              value={values.recurring ? 'recurring' : 'once'}
              onChange={(v) => set('recurring', v === 'recurring')}
            >
              <Group gap="lg" mt="xs">
                <Radio value="once" label="Once, starting now" />
                <Radio value="recurring" label="Recurring, the first one now" />
              </Group>
            </Radio.Group>
            {values.recurring && (
              <NumberInput
                label="Every (days)"
                description="A new campaign starts this many days after the previous one."
                {...days('everyDays')}
                maw={280}
              />
            )}
            <Group mt="sm">
              <Button type="submit" loading={pending}>
                {values.recurring ? 'Save recurring review' : 'Start campaign'}
              </Button>
              <Button variant="subtle" component={Link} to={paths.app.accessReviewCampaigns.href()}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
