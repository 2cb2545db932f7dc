import {
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  CONFIG_MESSAGES,
  DASHBOARD_ITEM_KINDS,
  DASHBOARD_RESOURCE_LIMITS as LIMITS,
  DASHBOARD_RESOURCE_MESSAGES as M,
  type DashboardItem,
  type PortalRole,
  type ResourceCategory,
} from '@portal/contract';
import { useParams } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { CountedTextarea, CountedTextInput } from '../../shared/CountedText';
import { LoadError } from '../../shared/ErrorAlert';
import { PageLoader } from '../../shared/PageLoader';
import { ITEM_KIND_LABELS } from '../../shared/resources/ResourceCard';
import { usePageTitle } from '../../shared/usePageTitle';
import { useConfigList } from '../api/getConfigList';
import { portalRoleResource } from '../api/resources';
import { ConfigFormShell } from '../ConfigFormShell';
import { parseId } from '../editor/ConfigEditorRoute';
import { useDashboardItem, useUploadLimits } from './api/getDashboardItems';
import { useResourceCategories } from './api/getResourceCategories';
import { useSaveDashboardItem } from './api/saveDashboardItem';
import { categoryPath } from './categoryTree';
import { ItemFileFields } from './ItemFileFields';
import {
  headlessCategoryIds,
  initialItemValues,
  itemLabels,
  itemSaveInput,
  validateItem,
  type ItemValues,
} from './itemForm';
import { ItemPreview } from './ItemPreview';
import { useResourceEditor } from './useResourceEditor';
import { focusFirstInvalid } from '../../shared/invalidFields';

const BACK = { to: paths.app.configure.href('dashboardItems'), label: 'Back to Dashboard Items' };

/** /app/configure/dashboard-items/new 'Add Dashboard Item' and .../{id} 'Edit Dashboard Item' (issue 23; ADMIN). */
export function ItemPage() {
  const id = parseId(useParams().id);
  const item = useDashboardItem(id !== null && id > 0 ? id : null);
  const categories = useResourceCategories();
  const roles = useConfigList(portalRoleResource);
  usePageTitle(`${id === null ? 'Add' : 'Edit'} Dashboard Item`);
  if (id === -1 || item.isError) {
    return <LoadError text={M.loadItem} onRetry={id === -1 ? undefined : () => void item.refetch()} />;
  }
  if (categories.isError) return <LoadError text={M.loadCategories} onRetry={() => void categories.refetch()} />;
  if (roles.isError)
    return <LoadError text={CONFIG_MESSAGES.portalRoles.loadAll} onRetry={() => void roles.refetch()} />;
  if ((id !== null && !item.data) || !categories.data || !roles.data) {
    return <PageLoader label="Loading the dashboard item" />;
  }
  return (
    <ItemForm key={item.data?.id ?? 'new'} item={item.data ?? null} categories={categories.data} roles={roles.data} />
  );
}

function ItemForm({
  item,
  categories,
  roles,
}: {
  item: DashboardItem | null;
  categories: ResourceCategory[];
  roles: PortalRole[];
}) {
  const limits = useUploadLimits();
  const headless = headlessCategoryIds(categories);
  const form = useForm<ItemValues>({
    initialValues: initialItemValues(item, headless.LINK),
    validate: (values) => validateItem(values, item, limits.data),
    // A new item starts in its kind's headless category (000 §9) until another category is chosen.
    onValuesChange: (values, previous) => {
      if (item || values.kind === previous.kind || values.categoryId !== String(headless[previous.kind])) return;
      const next = headless[values.kind];
      if (next !== null) form.setFieldValue('categoryId', String(next));
    },
  });
  const editor = useResourceEditor<ItemValues, DashboardItem>(form, {
    back: BACK.to,
    failedText: M.saveItemFailed,
    labels: (values) => itemLabels(values.kind),
    savedName: (saved, values) => saved?.title ?? values.title.trim(),
  });
  const save = useSaveDashboardItem({ mutationConfig: editor.saveConfig });
  const { change } = editor;

  const categoryOptions = categories
    .filter((c) => c.active || c.id === item?.categoryId)
    .map((c) => ({ value: String(c.id), label: categoryPath(categories, c.id) }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const roleOptions = roles.filter((r) => !r.inactive || item?.portalRoleIds.includes(r.id));
  const target = item && { kind: 'item' as const, id: item.id, name: item.title };
  const busy = save.isPending || change.pending;

  return (
    <Stack gap="xl">
      <ConfigFormShell
        title={`${item ? 'Edit' : 'Add'} Dashboard Item`}
        back={BACK}
        readOnly={false}
        inactive={item ? !item.active : false}
        message={editor.message}
        onCloseMessage={editor.clearMessage}
        auditLink={item ? paths.app.auditTrail.href({ entityType: 'DashboardItem', entityId: item.id }) : undefined}
        onSubmit={form.onSubmit(
          (values) => save.mutate(itemSaveInput(values, item)),
          (_errors, _values, event) => focusFirstInvalid(event),
        )}
        dialogs={editor.guardDialog}
        actions={
          <>
            <Button type="submit" loading={save.isPending} disabled={change.pending}>
              {item ? 'Save Dashboard Item' : 'Create Dashboard Item'}
            </Button>
            <Button variant="default" onClick={editor.reset} disabled={busy}>
              Reset
            </Button>
            <Button variant="subtle" onClick={editor.cancel} disabled={busy}>
              Cancel
            </Button>
            {target && (
              <Group gap="xs" ml="auto">
                <Button
                  variant="light"
                  color={item.active ? 'gray' : 'green'}
                  disabled={busy}
                  onClick={() => change.run(target, item.active ? 'deactivate' : 'activate')}
                >
                  {item.active ? 'Deactivate' : 'Activate'}
                </Button>
                <Button color="red" variant="light" disabled={busy} onClick={() => change.run(target, 'delete')}>
                  Delete Dashboard Item
                </Button>
              </Group>
            )}
          </>
        }
      >
        <Radio.Group label="Kind" required withAsterisk={false} {...form.getInputProps('kind')}>
          <Group gap="lg" mt="xs">
            {DASHBOARD_ITEM_KINDS.map((k) => (
              <Radio key={k} value={k} label={ITEM_KIND_LABELS[k]} disabled={!!item} />
            ))}
          </Group>
        </Radio.Group>
        <CountedTextInput
          label="Title"
          maxLength={LIMITS.title}
          required
          {...form.getInputProps('title')}
          value={form.values.title}
          onBlur={() => form.setFieldValue('title', form.values.title.trim())}
        />
        <CountedTextarea
          label="Description (optional)"
          maxLength={LIMITS.description}
          {...form.getInputProps('description')}
          value={form.values.description}
        />
        {form.values.kind === 'LINK' && (
          <TextInput
            label="URL"
            description="The address it opens in a new tab, starting with https://"
            type="url"
            required
            maxLength={LIMITS.url}
            {...form.getInputProps('url')}
          />
        )}
        <ItemFileFields form={form} item={item} limits={limits.data} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Category"
            data={categoryOptions}
            required
            searchable
            allowDeselect={false}
            {...form.getInputProps('categoryId')}
          />
          <NumberInput
            label="Order"
            description="Lower numbers come first in the category."
            min={0}
            max={LIMITS.order}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('order')}
          />
        </SimpleGrid>
        <Checkbox.Group
          label="Portal Roles"
          description="People holding one of these roles see the item on their dashboard."
          required
          {...form.getInputProps('portalRoleIds')}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing={6}>
            {roleOptions.map((r) => (
              <Checkbox key={r.id} value={String(r.id)} label={r.description} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
      </ConfigFormShell>
      <Paper withBorder p="md" component="section" aria-labelledby="item-preview-heading" maw={820}>
        <Title order={2} size="h3" id="item-preview-heading" mb="sm">
          Preview
        </Title>
        <ItemPreview values={form.values} item={item} />
      </Paper>
    </Stack>
  );
}
