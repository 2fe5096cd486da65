import { Combobox, Option } from '@fluentui/react-components';
import { Clock20Regular } from '@fluentui/react-icons';
import { type ReactNode, useEffect, useState } from 'react';
import { normalizeTime, QUARTER_HOURS } from './timeSlots';

export interface TimeSlotPickerProps {
  value: string;
  onChange(value: string): void;
  'aria-label': string;
  invalid?: boolean;
}

/**
 * A 24-hour time (spec section 5: times use 24h): pick a quarter hour from the list or type any
 * 'HH:mm'. A native <input type="time"> would show AM/PM in an English browser, and Fluent has no
 * stable time picker, so this is Fluent's freeform Combobox over 00:00-23:45.
 */
export function TimeSlotPicker({ value, onChange, invalid, ...aria }: TimeSlotPickerProps): ReactNode {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return (
    <Combobox
      freeform
      placeholder="HH:mm"
      aria-label={aria['aria-label']}
      aria-invalid={invalid || undefined}
      expandIcon={<Clock20Regular />}
      value={text}
      selectedOptions={QUARTER_HOURS.includes(value) ? [value] : []}
      onChange={(e) => {
        setText(e.target.value);
        onChange(e.target.value);
      }}
      onOptionSelect={(e, d) => {
        // Tab commits the highlighted option in Fluent's Combobox; a typed time wins over it.
        const tabbed = 'key' in e && e.key === 'Tab' && text.trim() !== '';
        if (!d.optionValue || tabbed) return;
        setText(d.optionValue);
        onChange(d.optionValue);
      }}
      onBlur={() => {
        const normal = normalizeTime(text);
        if (normal !== value) onChange(normal);
        setText(normal);
      }}
      style={{ minWidth: 120, width: 120 }}
      listbox={{ style: { maxHeight: 240 } }}
    >
      {QUARTER_HOURS.map((time) => (
        <Option key={time} value={time}>
          {time}
        </Option>
      ))}
    </Combobox>
  );
}
