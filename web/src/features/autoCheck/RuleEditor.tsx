import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowLeft20Regular, ArrowRight20Regular, Save20Regular } from '@fluentui/react-icons';
import { RuleMessages } from '@shared/schemas/autoCheck';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { pathOf } from '@/app/paths';
import { PageHeader, Panel } from '@/app/PageHeader';
import { toast } from '@/app/toast';
import { useT } from '@/i18n';
import { createRule, refreshRules, updateRule } from './autoCheckApi';
import { RuleStepper } from './RuleStepper';
import { type RuleForm, STEP, STEPS, sameForm, stepProblems, toBodyInput } from './ruleForm';
import { NameStep } from './steps/NameStep';
import { OverviewStep } from './steps/OverviewStep';
import { PointsStep } from './steps/PointsStep';
import { SitesStep } from './steps/SitesStep';
import { TimesStep } from './steps/TimesStep';
import { useLeaveGuard } from './useLeaveGuard';
import { useRuleZone } from './useRuleZone';
import { useStepFlags } from './useStepFlags';
import { WriteOnly } from '@/app/WriteOnly';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  body: { minHeight: '240px' },
  footer: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    justifyContent: 'flex-end',
    marginTop: tokens.spacingVerticalL,
  },
});

export interface RuleEditorProps {
  title: string;
  /** The rule being edited; absent on the new page. */
  ruleId?: number;
  initial: RuleForm;
  /** Names of the initial sites (the edit page reads them from the rule's items). */
  initialNames?: Record<number, string>;
}

/**
 * The five-step rule form of the new and edit pages (spec sections 2, 4, 5): name, sites,
 * checkpoints, times, overview. A step left while invalid shows its error flag; Save checks every
 * step; leaving with unsaved changes asks first.
 */
export function RuleEditor({ title, ruleId, initial, initialNames = {} }: RuleEditorProps): ReactNode {
  const t = useT();
  const styles = useStyles();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { zone } = useRuleZone();
  const [form, setForm] = useState(initial);
  const [names, setNames] = useState(initialNames);
  const [busy, setBusy] = useState(false);
  const problems = stepProblems(form);
  const steps = useStepFlags(
    STEPS.length,
    problems.map((p) => p === undefined),
  );
  const guard = useLeaveGuard(!sameForm(form, initial));
  const change = <K extends keyof RuleForm>(key: K, value: RuleForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const save = async () => {
    if (problems.some((p) => p !== undefined)) {
      steps.leaveAll();
      toast.warning(t(RuleMessages.reconfirm));
      return;
    }
    setBusy(true);
    try {
      const body = toBodyInput(form);
      await (ruleId === undefined ? createRule(body) : updateRule(ruleId, body));
      guard.release();
      await refreshRules(client);
      navigate(pathOf('autoCheckRules'));
    } catch {
      // The request layer showed the failure tip; the page stays as it is (spec section 8).
    } finally {
      setBusy(false);
    }
  };

  const current = steps.current;
  const show = (step: number) => steps.flagged(step);
  let body: ReactNode;
  switch (current) {
    case STEP.name:
      body = (
        <NameStep
          value={form.name}
          problem={problems[STEP.name]}
          showProblem={show(STEP.name) || form.name !== initial.name}
          onChange={(v) => change('name', v)}
        />
      );
      break;
    case STEP.sites:
      body = (
        <SitesStep
          sites={form.sites}
          names={names}
          problem={problems[STEP.sites]}
          showProblem={show(STEP.sites)}
          onChange={(sites, known) => {
            change('sites', sites);
            setNames(known);
          }}
        />
      );
      break;
    case STEP.points:
      body = (
        <PointsStep
          points={form.points}
          problem={problems[STEP.points]}
          showProblem={show(STEP.points)}
          onChange={(v) => change('points', v)}
        />
      );
      break;
    case STEP.times:
      body = (
        <TimesStep
          times={form.times}
          zone={zone}
          problem={problems[STEP.times]}
          showProblem={show(STEP.times)}
          onChange={(v) => change('times', v)}
        />
      );
      break;
    default:
      body = <OverviewStep form={form} names={names} zone={zone} />;
  }

  const last = current === STEPS.length - 1;
  return (
    <div className={styles.page}>
      <PageHeader title={title} />
      <Panel>
        <RuleStepper
          current={current}
          onGo={steps.go}
          steps={STEPS.map((s, i) => ({
            title: s,
            flagged: steps.flagged(i),
            problem: problems[i],
            done: problems[i] === undefined && i !== STEP.overview,
          }))}
        />
      </Panel>
      <Panel>
        <section className={styles.body} aria-label={t(STEPS[current])}>
          {body}
        </section>
        <div className={styles.footer}>
          <Button icon={<ArrowLeft20Regular />} disabled={current === 0} onClick={() => steps.go(current - 1)}>
            {t('Back')}
          </Button>
          {last ? null : (
            <Button icon={<ArrowRight20Regular />} iconPosition="after" onClick={() => steps.go(current + 1)}>
              {t('Next')}
            </Button>
          )}
          <WriteOnly>
            <Button appearance="primary" icon={<Save20Regular />} disabled={busy} onClick={() => void save()}>
              {t('Save')}
            </Button>
          </WriteOnly>
        </div>
      </Panel>
      {guard.prompt}
    </div>
  );
}
