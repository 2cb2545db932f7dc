import {
  Badge,
  Button,
  Checkbox,
  Fieldset,
  Group,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMemo } from 'react';
import {
  ACCESS_DATE_MESSAGES,
  CONSTANTS,
  relationIndex,
  sitesForStudies,
  studiesForSites,
  type RelationIndex,
  type StudyRole,
  type System,
} from '@portal/contract';
import { useSiteRelations, type SiteOptions } from './referenceData';

/**
 * The role block (000 §2 Shared widgets, 000 §5 / 001 §5 Role block rules): Study Role (required), LAOs and
 * AOs limited by the role's allowLAOs / allowAOs (disabled when both are false), Studies, and the
 * 'System Access Requested' checklist in which 'Portal Gateway' is always checked and cannot be removed.
 * With `relations` (LAO-site-study filtering on, 000 §5) the study options follow the chosen AOs/LAOs and the
 * AO/LAO options follow the chosen studies; values already chosen always stay listed.
 */
export interface RoleBlockValue {
  /** Stable React key of the block. */
  key: string;
  /** 001 §3: a new block's questionNum is one above the highest existing one. */
  questionNum: number;
  roleName: string | null;
  siteCodes: string[];
  laoIds: string[];
  studyNames: string[];
  /** System ids as strings (checkbox values). */
  systemAccessIds: string[];
  /**
   * Issue 25: the last day of the access ('YYYY-MM-DD'; '' none). Absent: the block does not set it (screens
   * without end dates, whose requests keep a held end date).
   */
  accessEndDate?: string;
}

export interface RoleBlockErrors {
  roleName?: string;
  sites?: string;
  studyNames?: string;
  systemAccessIds?: string;
  accessEndDate?: string;
}

export interface RoleBlockProps {
  index: number;
  value: RoleBlockValue;
  onChange: (next: RoleBlockValue) => void;
  errors?: RoleBlockErrors;
  studyRoles: StudyRole[];
  sites: SiteOptions;
  studyNames: string[];
  systems: System[];
  /** Study roles used elsewhere (other blocks, existing access): not offered (000 §5). */
  excludedRoleNames: ReadonlySet<string>;
  onRemove?: () => void;
  /** The study role cannot be changed (a request to modify existing access). */
  roleLocked?: boolean;
  disabled?: boolean;
  /**
   * The LAO-site-study relations (contract `relationIndex` of GET /rest/public/site_relation) for the filtering
   * of 000 §5. Absent: the block loads them itself (shared, cached query), so every role-block screen filters;
   * null: filtering off. While they load, or after a failed load, every option is offered.
   */
  relations?: RelationIndex | null;
  /** Issue 25: the block offers an end date (own requests, proxy batches, the Access tab and the review). */
  withEndDate?: boolean;
  /** Issue 25: the stored access ends within the notice window (marked 'Ends soon'). */
  endsSoon?: boolean;
}

export function fixedSystemId(systems: readonly System[]): string | undefined {
  const fixed = systems.find((s) => s.systemName === CONSTANTS.fixedSystemName);
  return fixed ? String(fixed.id) : undefined;
}

/** The block after choosing a study role: disallowed sites cleared, the role's default systems pre-checked. */
export function applyStudyRole(
  value: RoleBlockValue,
  role: StudyRole | undefined,
  systems: readonly System[],
): RoleBlockValue {
  const fixed = fixedSystemId(systems);
  const withFixed = (ids: string[]) => (fixed && !ids.includes(fixed) ? [fixed, ...ids] : ids);
  if (!role) return { ...value, roleName: null, siteCodes: [], laoIds: [], systemAccessIds: withFixed([]) };
  const known = new Set(systems.map((s) => String(s.id)));
  return {
    ...value,
    roleName: role.roleName,
    siteCodes: role.allowAOs ? value.siteCodes : [],
    laoIds: role.allowLAOs ? value.laoIds : [],
    systemAccessIds: withFixed(role.systemAccessIds.map(String).filter((id) => known.has(id))),
  };
}

type Option = { value: string; label: string };

/** Options plus any chosen value they lack (an existing record may hold a site the list hides). */
function withChosen(options: Option[], chosen: readonly string[], labels?: ReadonlyMap<string, string>): Option[] {
  const missing = chosen.filter((v) => !options.some((o) => o.value === v));
  return missing.length ? [...missing.map((v) => ({ value: v, label: labels?.get(v) ?? v })), ...options] : options;
}

export function RoleBlock(props: RoleBlockProps) {
  const { index, value, onChange, errors = {}, studyRoles, sites, systems, disabled } = props;
  const role = studyRoles.find((r) => r.roleName === value.roleName);
  const fixed = fixedSystemId(systems);
  const allowLAOs = role?.allowLAOs ?? false;
  const allowAOs = role?.allowAOs ?? false;
  const sitesOptional = !role?.siteRequired;
  const studiesOptional = !role?.studyRequired;
  const title = `Role #${index + 1}`;

  const roleOptions = studyRoles
    .filter((r) => r.roleName === value.roleName || !props.excludedRoleNames.has(r.roleName))
    .map((r) => ({ value: r.roleName, label: r.roleName }));
  // 000 §5 LAO-site-study filtering, both ways; null limits (nothing chosen on the other side) offer everything.
  const loaded = useSiteRelations(props.relations === undefined);
  const ownIndex = useMemo(() => (loaded.data ? relationIndex(loaded.data) : null), [loaded.data]);
  const relations = props.relations === undefined ? ownIndex : props.relations;
  const studyLimit = relations ? studiesForSites(relations, value) : null;
  const siteLimit = relations ? sitesForStudies(relations, value.studyNames) : null;
  const laoOptions = siteLimit ? sites.laos.filter((o) => siteLimit.laoIds.has(o.value)) : sites.laos;
  const aoOptions = siteLimit ? sites.aos.filter((o) => siteLimit.siteCodes.has(o.value)) : sites.aos;
  const studyOptions = (studyLimit ? props.studyNames.filter((n) => studyLimit.has(n)) : props.studyNames).map((n) => ({
    value: n,
    label: n,
  }));
  // Site errors show once, under the first selector the role allows (000 §5: laoIds and siteCodes under AO/LAO).
  const laoError = allowLAOs || !allowAOs ? errors.sites : undefined;
  const aoError = laoError ? undefined : errors.sites;

  return (
    <Fieldset
      legend={
        <Text fw={700} component="span">
          {title}
        </Text>
      }
      disabled={disabled}
    >
      <Stack gap="sm">
        <Select
          label="Study Role"
          placeholder="Select a study role"
          required
          searchable
          data={roleOptions}
          value={value.roleName}
          onChange={(name) =>
            onChange(
              applyStudyRole(
                value,
                studyRoles.find((r) => r.roleName === name),
                systems,
              ),
            )
          }
          // A locked role (Request Modified Access) is a value, not a placeholder: read-only in body text.
          disabled={disabled}
          readOnly={props.roleLocked}
          variant={props.roleLocked ? 'filled' : 'default'}
          rightSection={props.roleLocked ? <span aria-hidden>🔒</span> : undefined}
          description={props.roleLocked ? 'The study role of the access being modified.' : role?.description}
          error={errors.roleName}
          nothingFoundMessage="No study roles left to choose"
          comboboxProps={{ withinPortal: true }}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <MultiSelect
            label={`LAOs${sitesOptional ? ' (optional)' : ''}`}
            placeholder={allowLAOs ? 'Search LAOs' : undefined}
            searchable
            clearable
            data={withChosen(laoOptions, value.laoIds)}
            description={allowLAOs && siteLimit ? 'Only the LAOs of the chosen studies' : undefined}
            value={value.laoIds}
            onChange={(laoIds) => onChange({ ...value, laoIds })}
            disabled={disabled || !allowLAOs}
            required={!sitesOptional && allowLAOs && !allowAOs}
            error={laoError}
            nothingFoundMessage="No matching LAOs"
            hidePickedOptions
          />
          <MultiSelect
            label={`AOs${sitesOptional ? ' (optional)' : ''}`}
            placeholder={allowAOs ? 'Search AOs' : undefined}
            searchable
            clearable
            data={withChosen(aoOptions, value.siteCodes, sites.aoLabels)}
            description={allowAOs && siteLimit ? 'Only the AOs of the chosen studies' : undefined}
            value={value.siteCodes}
            onChange={(siteCodes) => onChange({ ...value, siteCodes })}
            disabled={disabled || !allowAOs}
            required={!sitesOptional && allowAOs && !allowLAOs}
            error={aoError}
            nothingFoundMessage="No matching AOs"
            hidePickedOptions
          />
        </SimpleGrid>
        {role && !sitesOptional && allowAOs && allowLAOs && (
          <Text size="xs" c="dimmed">
            At least one AO or LAO is required for this study role.
          </Text>
        )}
        <MultiSelect
          label={`Studies${studiesOptional ? ' (optional)' : ''}`}
          placeholder="Search studies"
          searchable
          clearable
          data={withChosen(studyOptions, value.studyNames)}
          description={role && studyLimit ? 'Only the studies of the chosen AOs and LAOs' : undefined}
          value={value.studyNames}
          onChange={(studyNames) => onChange({ ...value, studyNames })}
          disabled={disabled || !role}
          required={!studiesOptional}
          error={errors.studyNames}
          nothingFoundMessage="No matching studies"
          hidePickedOptions
        />
        <Checkbox.Group
          label="System Access Requested"
          value={
            fixed && !value.systemAccessIds.includes(fixed) ? [fixed, ...value.systemAccessIds] : value.systemAccessIds
          }
          onChange={(ids) =>
            onChange({ ...value, systemAccessIds: fixed && !ids.includes(fixed) ? [fixed, ...ids] : ids })
          }
          error={errors.systemAccessIds}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6} mt="xs">
            {systems.map((s) => (
              <Checkbox
                key={s.id}
                value={String(s.id)}
                label={s.systemName}
                description={String(s.id) === fixed ? 'Always included' : undefined}
                disabled={disabled || String(s.id) === fixed}
              />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        {props.withEndDate && (
          <Group gap="sm" align="flex-end">
            <TextInput
              type="date"
              label={`${ACCESS_DATE_MESSAGES.label} (optional)`}
              description={ACCESS_DATE_MESSAGES.description}
              value={value.accessEndDate ?? ''}
              onChange={(e) => onChange({ ...value, accessEndDate: e.currentTarget.value })}
              error={errors.accessEndDate}
              disabled={disabled}
              maw={280}
            />
            {props.endsSoon && (
              <Badge color="orange" variant="light" mb={6}>
                {ACCESS_DATE_MESSAGES.endsSoon}
              </Badge>
            )}
          </Group>
        )}
        {props.onRemove && (
          <Group justify="flex-end">
            <Button variant="subtle" color="red" size="compact-sm" onClick={props.onRemove} disabled={disabled}>
              Remove role
            </Button>
          </Group>
        )}
      </Stack>
    </Fieldset>
  );
}
