import { Button, NumberInput, Select } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  DASHBOARD_RESOURCE_LIMITS as LIMITS,
  DASHBOARD_RESOURCE_MESSAGES as M,
  type ResourceCategory,
} from '@portal/contract';
import { useParams } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { CountedTextInput } from '../../shared/CountedText';
import { LoadError } from '../../shared/ErrorAlert';
import { PageLoader } from '../../shared/PageLoader';
import { usePageTitle } from '../../shared/usePageTitle';
import { ConfigFormShell } from '../ConfigFormShell';
import { parseId } from '../editor/ConfigEditorRoute';
import type { FieldLabels } from '../errors';
import { useResourceCategories } from './api/getResourceCategories';
import { useSaveResourceCategory } from './api/saveResourceCategory';
import { categoryPath, selfAndDescendants } from './categoryTree';
import { useResourceEditor } from './useResourceEditor';
import { focusFirstInvalid } from '../../shared/invalidFields';

const LABELS: FieldLabels = {
  name: { label: 'Name' },
  parentId: { label: 'Parent Category' },
  order: { label: 'Order' },
};

/** The parent select's value for 'no parent'. */
const TOP = 'top';

const BACK = { to: paths.app.configure.href('resourceCategories'), label: 'Back to Dashboard Categories' };

interface Values {
  name: string;
  /** TOP is the top level. */
  parentId: string;
  order: number | string;
}

/** /app/configure/resource-categories/new 'Add Category' and .../{id} 'Edit Category' (issue 23; ADMIN). */
export function CategoryPage() {
  const id = parseId(useParams().id);
  const categories = useResourceCategories();
  usePageTitle(`${id === null ? 'Add' : 'Edit'} Category`);
  const category = id !== null ? categories.data?.find((c) => c.id === id) : null;
  if (categories.isError || id === -1 || (categories.data && category === undefined)) {
    return (
      <LoadError text={M.loadCategory} onRetry={categories.isError ? () => void categories.refetch() : undefined} />
    );
  }
  if (!categories.data) return <PageLoader label="Loading the category" />;
  return <CategoryForm key={category?.id ?? 'new'} category={category ?? null} all={categories.data} />;
}

function CategoryForm({ category, all }: { category: ResourceCategory | null; all: ResourceCategory[] }) {
  const form = useForm<Values>({
    initialValues: {
      name: category?.name ?? '',
      parentId: category?.parentId ? String(category.parentId) : TOP,
      order: category?.order ?? 0,
    },
    validate: {
      name: (v) => (v.trim() ? null : 'Name is required'),
      order: (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? null : 'Order must be an integer'),
    },
  });
  const editor = useResourceEditor<Values, ResourceCategory>(form, {
    back: BACK.to,
    failedText: M.saveCategoryFailed,
    labels: () => LABELS,
    savedName: (saved, values) => saved?.name ?? values.name.trim(),
  });
  const save = useSaveResourceCategory({ mutationConfig: editor.saveConfig });
  const { change } = editor;
  const excluded = category ? selfAndDescendants(all, category.id) : new Set<number>();
  const parents = [
    { value: TOP, label: 'None (top level)' },
    ...all
      .filter((c) => !excluded.has(c.id))
      .map((c) => ({ value: String(c.id), label: categoryPath(all, c.id) }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  ];
  const fixed = !!category?.headless;
  const target = category && { kind: 'category' as const, id: category.id, name: category.name };

  return (
    <ConfigFormShell
      title={`${category ? 'Edit' : 'Add'} Category`}
      back={BACK}
      readOnly={false}
      inactive={category ? !category.active : false}
      message={editor.message}
      onCloseMessage={editor.clearMessage}
      auditLink={
        category ? paths.app.auditTrail.href({ entityType: 'ResourceCategory', entityId: category.id }) : undefined
      }
      onSubmit={form.onSubmit(
        (v) =>
          save.mutate({
            id: category?.id ?? null,
            body: {
              name: v.name.trim(),
              parentId: v.parentId === TOP ? null : Number(v.parentId),
              order: Number(v.order),
              active: category?.active ?? true,
            },
          }),
        (_errors, _values, event) => focusFirstInvalid(event),
      )}
      dialogs={editor.guardDialog}
      actions={
        <>
          <Button type="submit" loading={save.isPending}>
            {category ? 'Save Category' : 'Create Category'}
          </Button>
          <Button variant="default" onClick={editor.reset} disabled={save.isPending}>
            Reset
          </Button>
          <Button variant="subtle" onClick={editor.cancel} disabled={save.isPending}>
            Cancel
          </Button>
          {target && !fixed && (
            <Button
              color="red"
              variant="light"
              ml="auto"
              onClick={() => change.run(target, 'delete')}
              loading={change.pending}
            >
              Delete Category
            </Button>
          )}
        </>
      }
    >
      {fixed && <div role="status">{M.fixedCategory}</div>}
      <CountedTextInput
        label="Name"
        maxLength={LIMITS.categoryName}
        required
        readOnly={fixed}
        {...form.getInputProps('name')}
        value={form.values.name}
        onBlur={() => form.setFieldValue('name', form.values.name.trim())}
      />
      <Select
        label="Parent Category (optional)"
        data={parents}
        allowDeselect={false}
        searchable
        disabled={fixed}
        {...form.getInputProps('parentId')}
      />
      <NumberInput
        label="Order"
        description="Lower numbers come first among the categories of the same parent."
        min={0}
        max={LIMITS.order}
        allowDecimal={false}
        allowNegative={false}
        {...form.getInputProps('order')}
      />
    </ConfigFormShell>
  );
}
