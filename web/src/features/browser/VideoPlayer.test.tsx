import { render, screen } from '@testing-library/react';
import type { Video } from '@shared/schemas/checks';
import { describe, expect, it } from 'vitest';
import { Providers } from '@/test/renderApp';
import { VideoPlayer } from './VideoPlayer';

const video: Video = {
  id: 7,
  process: 2,
  size: 204_800,
  url: 'http://127.0.0.1:4569/patrol-videos/7.webm?X-Amz-Signature=abc',
  content_type: 'video/webm',
  duration_ms: 3200,
  raw_log_id: 9,
  subtask_id: 4,
  created_at: 1_700_000_000_000,
};

describe('VideoPlayer', () => {
  it('plays the recording from its address with the browser controls', () => {
    render(<VideoPlayer video={video} />, { wrapper: Providers });
    const player = screen.getByTestId('video-player');
    expect(player.tagName).toBe('VIDEO');
    expect(player).toHaveAttribute('src', video.url);
    expect(player).toHaveAttribute('controls');
  });

  it("says 'Load failed from {url}.' when the recording has no address", () => {
    render(<VideoPlayer video={{ ...video, url: null }} />, { wrapper: Providers });
    expect(screen.getByRole('alert')).toHaveTextContent('Load failed from video #7.');
    expect(screen.queryByTestId('video-player')).not.toBeInTheDocument();
  });

  it("says 'No video record' when the check has no recording", () => {
    render(<VideoPlayer video={null} />, { wrapper: Providers });
    expect(screen.getByText('No video record')).toBeInTheDocument();
  });
});
