// A form generated from a declarative field list (shared/schemas/systemConfig: systemConfigFields):
// one input per field kind, grouped by section. A new setting needs no new input code.
import {
  Button,
  Checkbox,
  Dropdown,
  Field,
  Input,
  makeStyles,
  Option,
  Switch,
  Text,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, DeleteRegular } from '@fluentui/react-icons';
import { type ChannelPackagePair, type ConfigField, readConfigPath } from '@shared/schemas/systemConfig';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useT } from '@/i18n';
import { ConfigSecretInput } from './ConfigSecretInput';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  section: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
    gap: tokens.spacingVerticalM,
    // Each field its own height: a neighbour's long help text must not stretch an input.
    alignItems: 'start',
    border: 'none',
    margin: 0,
    padding: 0,
  },
  legend: { fontWeight: tokens.fontWeightSemibold, marginBottom: tokens.spacingVerticalS, padding: 0 },
  wide: { gridColumn: '1 / -1' },
  pair: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    alignItems: 'center',
    marginBottom: tokens.spacingVerticalXS,
  },
});

export interface ConfigFormProps {
  fields: readonly ConfigField[];
  /** The document being edited. */
  value: unknown;
  onChange(path: string, value: unknown): void;
  /** Dotted path -> message (English key), from the schema or the server's `extra`. */
  errors: Record<string, string>;
}

/** The first message at `path` or below it (a code list's item, a pair's channel). */
function errorAt(errors: Record<string, string>, path: string): string | undefined {
  if (errors[path]) return errors[path];
  const below = Object.keys(errors).find((k) => k.startsWith(`${path}.`));
  return below ? errors[below] : undefined;
}

// Every zone Intl knows, offered as suggestions; a typed zone is checked by the schema.
const TIME_ZONES: readonly string[] =
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

function TimeZoneInput({ value, onChange, name }: { value: string; onChange(v: string): void; name: string }) {
  const listId = useId();
  return (
    <>
      <Input name={name} value={value} list={listId} onChange={(_, d) => onChange(d.value)} />
      <datalist id={listId}>
        {TIME_ZONES.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
    </>
  );
}

/**
 * A whole number, sent as a number; anything else is sent as typed, so the schema can name it. An
 * optional one may be left empty: empty means unset (no budget).
 */
function IntegerInput({
  value,
  onChange,
  name,
  unit,
  optional = false,
}: {
  value: unknown;
  onChange(v: unknown): void;
  name: string;
  unit?: string;
  optional?: boolean;
}) {
  const t = useT();
  return (
    <Input
      name={name}
      type="number"
      value={value === undefined || value === null ? '' : String(value)}
      placeholder={optional ? t('None') : undefined}
      contentAfter={unit ? <Text size={200}>{t(unit)}</Text> : undefined}
      onChange={(_, d) => {
        const text = d.value.trim();
        if (optional && text === '') onChange(undefined);
        else onChange(/^-?\d+$/.test(text) ? Number(text) : d.value);
      }}
    />
  );
}

/** Several of a fixed list (a list setting such as the failure kinds to retry on). */
function ChoicesInput({
  value,
  onChange,
  choices,
  name,
}: {
  value: unknown;
  onChange(v: string[]): void;
  choices: readonly { value: string; label: string }[];
  name: string;
}) {
  const t = useT();
  const chosen = Array.isArray(value) ? (value as string[]) : [];
  return (
    <fieldset aria-label={name} style={{ display: 'flex', flexWrap: 'wrap', border: 'none', margin: 0, padding: 0 }}>
      {choices.map((c) => (
        <Checkbox
          key={c.value}
          label={t(c.label)}
          checked={chosen.includes(c.value)}
          onChange={(_, d) =>
            // Kept in the list's own order, whatever order they were ticked in.
            onChange(
              choices.map((x) => x.value).filter((v) => (v === c.value ? d.checked === true : chosen.includes(v))),
            )
          }
        />
      ))}
    </fieldset>
  );
}

/** One code per line (commas and spaces also separate); the text is kept as typed while focused. */
function CodesInput({ value, onChange, name }: { value: unknown; onChange(v: string[]): void; name: string }) {
  const codes = Array.isArray(value) ? (value as string[]) : [];
  const [text, setText] = useState(codes.join('\n'));
  const joined = codes.join('\n');
  // A restore or reload replaces the list from outside.
  useEffect(() => {
    setText((current) => (parseCodes(current).join('\n') === joined ? current : joined));
  }, [joined]);
  return (
    <Textarea
      name={name}
      resize="vertical"
      rows={3}
      value={text}
      onChange={(_, d) => {
        setText(d.value);
        onChange(parseCodes(d.value));
      }}
    />
  );
}

const parseCodes = (text: string) => text.split(/[\s,]+/).filter(Boolean);

function PairsInput({
  value,
  onChange,
  channels,
  packages,
  errors,
  path,
}: {
  value: unknown;
  onChange(v: ChannelPackagePair[]): void;
  channels: string[];
  packages: string[];
  errors: Record<string, string>;
  path: string;
}) {
  const t = useT();
  const styles = useStyles();
  const pairs = Array.isArray(value) ? (value as ChannelPackagePair[]) : [];
  const set = (i: number, patch: Partial<ChannelPackagePair>) =>
    onChange(pairs.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  return (
    <div>
      {pairs.map((pair, i) => {
        const error = errorAt(errors, `${path}.${i}`);
        return (
          <div key={i}>
            <div className={styles.pair}>
              <Dropdown
                aria-label={t('Channel')}
                placeholder={t('Channel')}
                value={pair.channel}
                selectedOptions={[pair.channel]}
                onOptionSelect={(_, d) => set(i, { channel: d.optionValue ?? '' })}
              >
                {channels.map((c) => (
                  <Option key={c}>{c}</Option>
                ))}
              </Dropdown>
              <Dropdown
                aria-label={t('Package')}
                placeholder={t('Package')}
                value={pair.package}
                selectedOptions={[pair.package]}
                onOptionSelect={(_, d) => set(i, { package: d.optionValue ?? '' })}
              >
                {packages.map((p) => (
                  <Option key={p}>{p}</Option>
                ))}
              </Dropdown>
              <Button
                appearance="subtle"
                aria-label={t('Remove pair')}
                icon={<DeleteRegular />}
                onClick={() => onChange(pairs.filter((_, j) => j !== i))}
              />
            </div>
            {error ? (
              <Text size={200} style={{ color: tokens.colorPaletteRedForeground1 }}>
                {t(error)}
              </Text>
            ) : null}
          </div>
        );
      })}
      <Button
        size="small"
        icon={<AddRegular />}
        disabled={channels.length === 0 || packages.length === 0}
        onClick={() => onChange([...pairs, { channel: channels[0] ?? '', package: packages[0] ?? '' }])}
      >
        {t('Add pair')}
      </Button>
    </div>
  );
}

/** Renders `fields` over `value`, section by section, in declaration order. */
export function ConfigForm({ fields, value, onChange, errors }: ConfigFormProps): ReactNode {
  const t = useT();
  const styles = useStyles();
  const sections = [...new Set(fields.map((f) => f.section))];

  const input = (field: ConfigField) => {
    const current = readConfigPath(value, field.path);
    switch (field.kind) {
      case 'timeZone':
        return (
          <TimeZoneInput name={field.path} value={String(current ?? '')} onChange={(v) => onChange(field.path, v)} />
        );
      case 'integer':
      case 'optionalInteger':
        return (
          <IntegerInput
            name={field.path}
            value={current}
            unit={field.unit}
            optional={field.kind === 'optionalInteger'}
            onChange={(v) => onChange(field.path, v)}
          />
        );
      case 'choices':
        return (
          <ChoicesInput
            name={field.path}
            value={current}
            choices={field.choices ?? []}
            onChange={(v) => onChange(field.path, v)}
          />
        );
      case 'switch':
        return (
          <Switch
            name={field.path}
            checked={current === true}
            label={current === true ? t('On') : t('Off')}
            onChange={(_, d) => onChange(field.path, d.checked)}
          />
        );
      case 'text':
        return (
          <Input name={field.path} value={String(current ?? '')} onChange={(_, d) => onChange(field.path, d.value)} />
        );
      case 'choice':
        return (
          <Dropdown
            name={field.path}
            aria-label={t(field.label)}
            value={t(field.choices?.find((c) => c.value === current)?.label ?? String(current ?? ''))}
            selectedOptions={current === undefined ? [] : [String(current)]}
            onOptionSelect={(_, d) => onChange(field.path, d.optionValue)}
          >
            {(field.choices ?? []).map((c) => (
              <Option key={c.value} value={c.value}>
                {t(c.label)}
              </Option>
            ))}
          </Dropdown>
        );
      case 'secret':
        return <ConfigSecretInput path={field.path} url={field.secretUrl ?? ''} />;
      case 'codes':
        return <CodesInput name={field.path} value={current} onChange={(v) => onChange(field.path, v)} />;
      case 'pairs': {
        // The pair dropdowns offer the channel and package codes of the same section.
        const base = field.path.split('.').slice(0, -1).join('.');
        const list = (name: string) => (readConfigPath(value, `${base}.${name}`) as string[] | undefined) ?? [];
        return (
          <PairsInput
            path={field.path}
            value={current}
            channels={list('channel_codes')}
            packages={list('package_codes')}
            errors={errors}
            onChange={(v) => onChange(field.path, v)}
          />
        );
      }
    }
  };

  return (
    <div className={styles.form}>
      {sections.map((section) => (
        <fieldset key={section} className={styles.section}>
          <legend className={styles.legend}>{t(section)}</legend>
          {fields
            .filter((f) => f.section === section)
            .map((field) => {
              const error = field.kind === 'pairs' ? undefined : errorAt(errors, field.path);
              const bounds = field.bounds ? t('{min} to {max}', field.bounds) : undefined;
              const hint = [field.help ? t(field.help) : '', bounds].filter(Boolean).join(' ');
              return (
                <Field
                  key={field.path}
                  className={
                    field.kind === 'pairs' ||
                    field.kind === 'timeZone' ||
                    field.kind === 'choices' ||
                    field.kind === 'secret'
                      ? styles.wide
                      : undefined
                  }
                  label={t(field.label)}
                  hint={hint || undefined}
                  validationMessage={error ? t(error) : undefined}
                >
                  {input(field)}
                </Field>
              );
            })}
        </fieldset>
      ))}
    </div>
  );
}
