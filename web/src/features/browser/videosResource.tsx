import { Process } from '@shared/enums';
import { type Video, videoListFields } from '@shared/schemas/checks';
import { formatKib, formatSeconds } from '@/app/format';
import { col, defineResource } from '@/components/table';
import { t } from '@/i18n';
import { PlayVideoButton } from './PlayVideoButton';

export const videosResource = defineResource<Video>({
  name: 'browserVideos',
  endpoint: '/raw/videos',
  listFields: videoListFields,
  title: 'Browser Video',
  rowId: (v) => v.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  columns: [
    col.number('id', 'ID', { filter: true, sortable: true }),
    col.enum('process', 'Process', Process, { filter: true }),
    col.number('size', 'Size', { filter: true, sortable: true, render: (v) => formatKib(v.size) }),
    col.number('duration_ms', 'Duration', { render: (v) => formatSeconds(v.duration_ms) }),
    col.number('raw_log_id', 'Raw Log ID', { filter: true, copyable: true }),
    col.number('subtask_id', 'SubTask ID', { filter: true, hidden: true }),
    col.datetime('created_at', 'Created At', { filter: 'range', sortable: true }),
    col.custom('url', 'Video', {
      render: (v) => (v.url ? <PlayVideoButton video={v} /> : t('No Video.')),
      text: (v) => v.url ?? '',
    }),
  ],
});
