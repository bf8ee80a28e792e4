// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DailyChoice, dailyTime } from './DailyChoice';

afterEach(cleanup);

function Form({ seen }: { seen: (days: number | null) => void }) {
  const [days, setDays] = useState<number | null>(null);
  return (
    <DailyChoice
      id="days"
      days={days}
      onChange={(d) => {
        seen(d);
        setDays(d);
      }}
    />
  );
}

describe('DailyChoice', () => {
  it('offers correspondence with lichess’s days per move', () => {
    const seen: (number | null)[] = [];
    render(<Form seen={(d) => seen.push(d)} />);
    expect(screen.queryByLabelText('Days per move')).toBeNull();
    fireEvent.click(screen.getByLabelText('Correspondence (days per move)'));
    const select = screen.getByLabelText('Days per move') as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(['1', '2', '3', '5', '7', '14']);
    expect(select.value).toBe('2');
    fireEvent.change(select, { target: { value: '7' } });
    fireEvent.click(screen.getByLabelText('Correspondence (days per move)'));
    expect(seen).toEqual([2, 7, null]);
    expect(screen.queryByLabelText('Days per move')).toBeNull();
  });

  it('gives the form’s time control', () => {
    expect(dailyTime(null, { minutes: 3, increment: 2 })).toEqual({ minutes: 3, increment: 2 });
    expect(dailyTime(null, 'unlimited')).toBe('unlimited');
    expect(dailyTime(14, { minutes: 3, increment: 2 })).toEqual({ days: 14 });
  });
});
