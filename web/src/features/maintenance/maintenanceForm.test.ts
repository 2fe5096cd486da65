import type { MaintenanceWindow } from '@shared/schemas/maintenance';
import { describe, expect, it } from 'vitest';
import { checkMaintenance, emptyMaintenanceForm, maintenanceBodyOf, maintenanceFormOf } from './maintenanceForm';

const ZONE = 'Asia/Yangon';

describe('the maintenance window form', () => {
  it('starts as an hour from the next full hour, on the zone’s wall clock', () => {
    const form = emptyMaintenanceForm(ZONE, Date.parse('2026-11-27T03:10:00Z'));
    // 03:10 UTC is 09:40 in Yangon (UTC+6:30): the next full hour (UTC) is 04:00, 10:30 there.
    expect(form).toMatchObject({
      kind: 'once',
      mode: 'pause',
      start_date: '2026-11-27',
      start_clock: '10:30',
      end_date: '2026-11-27',
      end_clock: '11:30',
    });
  });

  it('sends a one-off window as the instants its dates and times name in the zone', () => {
    const form = {
      ...emptyMaintenanceForm(ZONE),
      name: 'Deploy',
      sites: [4],
      start_date: '2026-11-30',
      start_clock: '09:30',
      end_date: '2026-11-30',
      end_clock: '11:00',
    };
    expect(maintenanceBodyOf(form, ZONE)).toMatchObject({
      kind: 'once',
      sites: [4],
      start_at: Date.parse('2026-11-30T03:00:00Z'),
      end_at: Date.parse('2026-11-30T04:30:00Z'),
    });
    expect(maintenanceFormOf({ ...maintenanceBodyOf(form, ZONE), id: 1 } as MaintenanceWindow, ZONE)).toMatchObject({
      start_date: '2026-11-30',
      start_clock: '09:30',
      end_clock: '11:00',
    });
  });

  it('refuses with the server’s words, an instant’s on its date field', () => {
    const form = { ...emptyMaintenanceForm(ZONE), name: ' ', end_date: '', start_clock: '12:00', end_clock: '11:00' };
    expect(checkMaintenance(form, ZONE).errors).toMatchObject({
      name: 'Please enter window name',
      sites: 'Please select sites first',
    });
    const noEnd = { ...form, name: 'w', all_sites: true };
    expect(checkMaintenance(noEnd, ZONE).errors).toEqual({ end_date: 'Please choose the end' });
    const weekly = { ...noEnd, kind: 'weekly' as const, days: [], start_time: '22:00', end_time: '22:00' };
    expect(checkMaintenance(weekly, ZONE).errors).toEqual({
      days: 'Choose at least one weekday',
      end_time: 'The start and the end must differ',
    });
    expect(checkMaintenance({ ...weekly, days: [3], end_time: '02:00' }, ZONE).body).toMatchObject({
      kind: 'weekly',
      sites: 'all',
      days: [3],
    });
  });
});
