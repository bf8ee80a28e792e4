/*
 * The settings page (/settings): every player setting, applied at once and kept in this browser
 * (and, for an account, on the server too: it follows the player to other browsers). A small
 * board shows the board's colours, pieces and coordinates as they are set.
 */
import { useId, type ReactNode } from 'react';
import { Board } from '../../components/Board';
import { useSelect } from '../../hooks/useSelect';
import { useAppState } from '../../hooks/useStore';
import {
  BOARD_COLORS,
  SETTING_RANGES,
  SETTING_WORDS,
  type AnimationSpeed,
  type BoardTheme,
  type SiteTheme,
} from './controller';
import { useBoardAppearance, useSettings, useSettingsController } from './hooks';
import { PIECE_SET_INFO } from './pieces';

const PREVIEW_FEN = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';

const BOARD_NAMES: Record<BoardTheme, string> = { brown: 'Brown', blue: 'Blue', green: 'Green', purple: 'Purple', grey: 'Grey' };
const THEME_NAMES: Record<SiteTheme, string> = { system: 'Follow the system', light: 'Light', dark: 'Dark' };
const ANIMATION_NAMES: Record<AnimationSpeed, string> = { none: 'None', fast: 'Fast', normal: 'Normal', slow: 'Slow' };

export function SettingsPage() {
  const controller = useSettingsController();
  const s = useSettings();
  const appearance = useBoardAppearance();
  const synced = useSelect(controller, (st) => st.synced);
  const account = useAppState((st) => st.me?.registered === true && !st.me.bot) || synced;
  return (
    <div className="settings-layout">
      <section className="panel settings-form" aria-labelledby="settings-title">
        <h1 id="settings-title">Settings</h1>
        <p className="hint" role="status">
          {account
            ? 'Changes apply at once and are saved to your account: they follow you to other browsers.'
            : 'Changes apply at once and are saved in this browser. Log in to keep them on your account.'}
        </p>

        <Choices
          legend="Board"
          name="board"
          value={s.board}
          options={SETTING_WORDS.board.map((b) => ({
            value: b,
            label: BOARD_NAMES[b],
            swatch: <BoardSwatch theme={b} />,
          }))}
          onChange={(board) => controller.change({ board })}
        />
        <Choices
          legend="Pieces"
          name="pieces"
          value={s.pieces}
          options={SETTING_WORDS.pieces.map((p) => ({
            value: p,
            label: PIECE_SET_INFO[p].name,
            hint: PIECE_SET_INFO[p].credit,
          }))}
          onChange={(pieces) => controller.change({ pieces })}
        />
        <Choices
          legend="Theme"
          name="theme"
          value={s.theme}
          options={SETTING_WORDS.theme.map((t) => ({ value: t, label: THEME_NAMES[t] }))}
          onChange={(theme) => controller.change({ theme })}
        />
        <Range
          label="Board size"
          value={s.board_size}
          range={SETTING_RANGES.board_size}
          step={5}
          unit="%"
          onChange={(board_size) => controller.change({ board_size })}
        />
        <Check label="Show coordinates" checked={s.coordinates} onChange={(coordinates) => controller.change({ coordinates })} />
        <Select
          label="Piece animation"
          value={s.animation}
          options={SETTING_WORDS.animation.map((a) => ({ value: a, label: ANIMATION_NAMES[a] }))}
          onChange={(animation) => controller.change({ animation })}
        />
        <Check
          label="Confirm moves (a move waits for Confirm before it is sent)"
          checked={s.confirm_move}
          onChange={(confirm_move) => controller.change({ confirm_move })}
        />
        <Select
          label="Promote to a queen automatically"
          value={s.auto_queen}
          options={[
            { value: 'always', label: 'Always' },
            { value: 'never', label: 'Never (choose the piece)' },
          ]}
          onChange={(auto_queen) => controller.change({ auto_queen })}
        />
        <Range
          label="Sound volume"
          value={s.volume}
          range={SETTING_RANGES.volume}
          step={5}
          unit="%"
          onChange={(volume) => controller.change({ volume })}
        />
        <Check
          label="Zen mode (the game page shows only the board, clocks and move controls)"
          checked={s.zen}
          onChange={(zen) => controller.change({ zen })}
        />
        <div className="button-row">
          <button type="button" onClick={() => controller.resetAll()}>
            Reset all settings
          </button>
        </div>
      </section>
      <section className="panel settings-preview" aria-label="Preview">
        <Board
          fen={PREVIEW_FEN}
          orientation="white"
          movable={null}
          lastMove={{ from: 'g1', to: 'f3' }}
          checkSquare={null}
          onMove={() => undefined}
          label="Preview of the board"
          appearance={appearance}
        />
      </section>
    </div>
  );
}

function BoardSwatch({ theme }: { theme: BoardTheme }) {
  const { light, dark } = BOARD_COLORS[theme];
  return (
    <span className="board-swatch" aria-hidden="true">
      <span style={{ background: light }} />
      <span style={{ background: dark }} />
      <span style={{ background: dark }} />
      <span style={{ background: light }} />
    </span>
  );
}

interface Option<T extends string> {
  value: T;
  label: string;
  hint?: string;
  swatch?: ReactNode;
}

/** A radio group (a fieldset with its legend). */
function Choices<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: T;
  options: Option<T>[];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="settings-choices">
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className="settings-choice" title={o.hint}>
          <input type="radio" name={name} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} />
          {o.swatch}
          <span>{o.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

function Select<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: Option<T>[];
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <div className="settings-row">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Range({
  label,
  value,
  range,
  step,
  unit,
  onChange,
}: {
  label: string;
  value: number;
  range: { min: number; max: number };
  step: number;
  unit: string;
  onChange: (value: number) => void;
}) {
  const id = useId();
  return (
    <div className="settings-row">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="range"
        min={range.min}
        max={range.max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      />
      <output htmlFor={id}>
        {value}
        {unit}
      </output>
    </div>
  );
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="check settings-check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}
