import { describe, expect, it } from 'vitest';
import { emptyRuleForm, emptyWeek, type RuleForm, ruleToForm, stepProblems, toBodyInput } from './ruleForm';
import { addSlot, canAddSlot, normalizeTime, removeSlot, setSlot, slotProblems } from './timeSlots';
import { isFlagged, leaveAll, moveTo, startAt } from './useStepFlags';
import { weekStampText } from './weekStampText';

describe('stepper error flags', () => {
  it('flags a step only after it was left once while invalid, and clears the flag once it is valid', () => {
    let s = startAt();
    expect(isFlagged(s, 0, false)).toBe(false);
    s = moveTo(s, 0); // staying put is not leaving
    expect(isFlagged(s, 0, false)).toBe(false);
    s = moveTo(s, 1);
    expect(isFlagged(s, 0, false)).toBe(true);
    expect(isFlagged(s, 0, true)).toBe(false);
    // the step being shown, never left yet, is not flagged
    expect(isFlagged(s, 1, false)).toBe(false);
    expect(isFlagged(s, 2, false)).toBe(false);
  });

  it('flags every invalid step after an invalid submit', () => {
    const s = leaveAll(startAt(), 5);
    expect([0, 1, 2, 3, 4].map((i) => isFlagged(s, i, i === 4))).toEqual([true, true, true, true, false]);
  });

  it("names each step's problem with the rule schema's texts", () => {
    expect(stepProblems(emptyRuleForm())).toEqual([
      'Please enter rule name',
      'Please select sites first',
      'No point to check',
      'Please add at least one check time',
      undefined,
    ]);
    const complete: RuleForm = {
      name: ' r ',
      sites: [1],
      points: [{ point: 1, modes: [1] }],
      times: { ...emptyWeek(), 1: ['09:30'] },
    };
    expect(stepProblems(complete)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('times step', () => {
  it("shows 'Fill or delete' on an empty slot and adds no slot until it is filled or deleted", () => {
    let week = addSlot(emptyWeek(), 1);
    expect(week[1]).toEqual(['']);
    expect(slotProblems(week)).toEqual({ '1:0': 'Fill or delete' });
    expect(canAddSlot(week)).toBe(false);
    expect(addSlot(week, 3)).toBe(week);

    week = setSlot(week, 1, 0, '09:30');
    expect(canAddSlot(week)).toBe(true);
    week = addSlot(week, 3);
    expect(week[3]).toEqual(['']);
    week = removeSlot(week, 3, 0);
    expect(canAddSlot(week)).toBe(true);
    expect(toBodyInput({ ...emptyRuleForm(), times: week }).times).toEqual([{ day: 1, times: ['09:30'] }]);
  });

  it('refuses a time that is not 24-hour HH:mm and a time twice on one day', () => {
    const week = { ...emptyWeek(), 2: ['9:30 PM', '10:00', '10:00'] };
    expect(slotProblems(week)).toEqual({ '2:0': 'Use a 24-hour time HH:mm', '2:2': 'Duplicate time 10:00' });
    expect(canAddSlot(week)).toBe(false);
  });

  it('reads typed times as 24-hour HH:mm', () => {
    expect(normalizeTime('930')).toBe('09:30');
    expect(normalizeTime('9:05')).toBe('09:05');
    expect(normalizeTime('21')).toBe('21:00');
    expect(normalizeTime(' 23:59 ')).toBe('23:59');
    expect(normalizeTime('24:00')).toBe('24:00');
    expect(normalizeTime('9:30 PM')).toBe('9:30 PM');
  });

  it('loads a rule read as {process, modes} into the form', () => {
    const form = ruleToForm({
      name: 'Morning',
      sites: [3, 4],
      checkpoints: { points: [{ process: 2, modes: [3, 1] }] },
      times: [{ day: 7, times: ['23:59'] }],
    });
    expect(form.points).toEqual([{ point: 2, modes: [1, 3] }]);
    expect(form.times[7]).toEqual(['23:59']);
    expect(form.times[1]).toEqual([]);
  });
});

describe('week stamp', () => {
  it('is shown as weekday and time', () => {
    expect(weekStampText(0)).toBe('Monday 00:00');
    expect(weekStampText(34_200)).toBe('Monday 09:30');
    expect(weekStampText(86_400 * 2 + 3600 * 14 + 5 * 60)).toBe('Wednesday 14:05');
    expect(weekStampText(604_740)).toBe('Sunday 23:59');
  });

  it("shows '/' for a stamp outside the week", () => {
    expect(weekStampText(604_800)).toBe('/');
    expect(weekStampText(-1)).toBe('/');
    expect(weekStampText(null)).toBe('/');
  });
});
