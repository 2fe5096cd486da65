// Patrol's architecture as data: boxes on a 6x3 grid and the arrows between them.
// Arrows run between box centres and are clipped at the box edges, so moving a box is one edit.
import { tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

type Kind = 'client' | 'edge' | 'compute' | 'data' | 'queue' | 'storage' | 'external';

interface Box {
  id: string;
  col: number;
  row: number;
  title: string;
  sub: string;
  kind: Kind;
}

const boxes: Box[] = [
  { id: 'web', col: 0, row: 1, title: 'Web console', sub: 'React · Fluent UI', kind: 'client' },
  { id: 'hook', col: 0, row: 2, title: 'Bank webhook', sub: 'POST · x-api-key', kind: 'external' },
  { id: 'gw', col: 1, row: 1, title: 'API Gateway', sub: 'HTTP API /api/v1', kind: 'edge' },
  { id: 'api', col: 2, row: 1, title: 'API Lambda', sub: 'routers · auth', kind: 'compute' },
  { id: 'ddb', col: 2, row: 0, title: 'DynamoDB', sub: 'one table', kind: 'data' },
  { id: 'poll', col: 3, row: 0, title: 'Bank pollers', sub: 'KBZ · AYA', kind: 'compute' },
  { id: 'cron', col: 4, row: 0, title: 'EventBridge', sub: 'schedules', kind: 'edge' },
  { id: 'sqs', col: 3, row: 1, title: 'SQS', sub: 'check queue', kind: 'queue' },
  { id: 'checker', col: 4, row: 1, title: 'Checker Lambdas', sub: 'headless Chromium', kind: 'compute' },
  { id: 'sites', col: 5, row: 1, title: 'Checked sites', sub: 'betting sites', kind: 'external' },
  { id: 'notify', col: 3, row: 2, title: 'Notifiers', sub: 'TG · webhooks', kind: 'compute' },
  { id: 'tg', col: 2, row: 2, title: 'Telegram', sub: 'chat channel', kind: 'external' },
  { id: 's3', col: 4, row: 2, title: 'S3', sub: 'check videos', kind: 'storage' },
];

const arrows: Array<[from: string, to: string, label?: string]> = [
  ['web', 'gw'],
  ['hook', 'gw'],
  ['gw', 'api'],
  ['api', 'ddb'],
  ['api', 'sqs'],
  ['cron', 'poll'],
  ['cron', 'sqs', 'auto checks'],
  ['poll', 'ddb'],
  ['sqs', 'checker'],
  ['checker', 'sites'],
  ['checker', 's3', 'video'],
  ['checker', 'notify', 'results'],
  ['notify', 'tg'],
];

const palette: Record<Kind, { stripe: string; fill: string; dashed?: boolean }> = {
  client: { stripe: '#0f6cbd', fill: '#ebf3fc' },
  edge: { stripe: '#8764b8', fill: '#f3eefa' },
  compute: { stripe: '#d86c00', fill: '#fdf3e8' },
  data: { stripe: '#3b48cc', fill: '#eceefc' },
  queue: { stripe: '#c3127c', fill: '#fbeaf4' },
  storage: { stripe: '#3f8624', fill: '#edf6e9' },
  external: { stripe: '#8a8886', fill: '#ffffff', dashed: true },
};

const W = 140;
const H = 58;
const COL = 160;
const ROW = 120;
const PAD_X = 14;
const PAD_Y = 20;

const at = (b: Box) => ({ x: PAD_X + b.col * COL, y: PAD_Y + b.row * ROW });
const centre = (b: Box) => ({ x: at(b).x + W / 2, y: at(b).y + H / 2 });

/** Where the segment from a box's centre towards `to` leaves the box (plus a small gap). */
function exitPoint(b: Box, to: { x: number; y: number }, gap = 4) {
  const c = centre(b);
  const dx = to.x - c.x;
  const dy = to.y - c.y;
  const scale = Math.min(dx ? (W / 2 + gap) / Math.abs(dx) : Infinity, dy ? (H / 2 + gap) / Math.abs(dy) : Infinity);
  return { x: c.x + dx * scale, y: c.y + dy * scale };
}

export function ArchitectureDiagram(): ReactNode {
  const t = useT();
  const byId = new Map(boxes.map((b) => [b.id, b]));
  const width = PAD_X * 2 + 5 * COL + W;
  const height = PAD_Y * 2 + 2 * ROW + H + 36;
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={t('Patrol architecture diagram')}
      style={{ width: '100%', maxWidth: 980, height: 'auto', display: 'block', fontFamily: tokens.fontFamilyBase }}
    >
      <defs>
        <marker
          id="arch-arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M0 0 L10 5 L0 10 Z" fill="#605e5c" />
        </marker>
        <filter id="arch-shadow" x="-10%" y="-10%" width="120%" height="140%">
          <feDropShadow dx="0" dy="1" stdDeviation="1.5" floodOpacity="0.14" />
        </filter>
      </defs>
      {arrows.map(([from, to, label]) => {
        const a = byId.get(from);
        const b = byId.get(to);
        if (!a || !b) return null;
        const p = exitPoint(a, centre(b));
        const q = exitPoint(b, centre(a), 6);
        return (
          <g key={`${from}-${to}`}>
            <line x1={p.x} y1={p.y} x2={q.x} y2={q.y} stroke="#605e5c" strokeWidth="1.4" markerEnd="url(#arch-arrow)" />
            {label ? (
              <text
                x={(p.x + q.x) / 2}
                y={(p.y + q.y) / 2 - 6}
                textAnchor="middle"
                fontSize="10.5"
                fill="#605e5c"
                stroke="#ffffff"
                strokeWidth="4"
                paintOrder="stroke"
              >
                {t(label)}
              </text>
            ) : null}
          </g>
        );
      })}
      {boxes.map((b) => {
        const { x, y } = at(b);
        const colors = palette[b.kind];
        return (
          <g key={b.id} filter="url(#arch-shadow)">
            <rect
              x={x}
              y={y}
              width={W}
              height={H}
              rx="8"
              fill={colors.fill}
              stroke={colors.dashed ? '#8a8886' : colors.stripe}
              strokeOpacity={colors.dashed ? 1 : 0.35}
              strokeDasharray={colors.dashed ? '4 3' : undefined}
            />
            {colors.dashed ? null : <rect x={x} y={y + 10} width="4" height={H - 20} rx="2" fill={colors.stripe} />}
            <text x={x + W / 2} y={y + 25} textAnchor="middle" fontSize="13" fontWeight="600" fill="#242424">
              {t(b.title)}
            </text>
            <text x={x + W / 2} y={y + 43} textAnchor="middle" fontSize="11" fill="#616161">
              {t(b.sub)}
            </text>
          </g>
        );
      })}
      <g transform={`translate(${PAD_X}, ${height - 18})`} fontSize="11" fill="#616161">
        {(
          [
            ['compute', 'Lambda'],
            ['edge', 'Gateway / schedules'],
            ['data', 'Database'],
            ['queue', 'Queue'],
            ['storage', 'Object storage'],
            ['external', 'Outside Patrol'],
          ] as const
        ).map(([kind, label], i) => (
          <g key={kind} transform={`translate(${i * 150}, 0)`}>
            <rect
              x="0"
              y="-9"
              width="12"
              height="12"
              rx="3"
              fill={palette[kind].fill}
              stroke={palette[kind].stripe}
              strokeDasharray={palette[kind].dashed ? '3 2' : undefined}
            />
            <text x="18" y="1">
              {t(label)}
            </text>
          </g>
        ))}
      </g>
    </svg>
  );
}
