import { fireEvent, render, screen } from '@testing-library/react';
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

  it("says 'Load failed from {url}.' when the recording has no address, '/' standing for the missing one", () => {
    render(<VideoPlayer video={{ ...video, url: null }} />, { wrapper: Providers });
    expect(screen.getByRole('alert')).toHaveTextContent('Load failed from /.');
    expect(screen.queryByTestId('video-player')).not.toBeInTheDocument();
  });

  it("says 'Load failed from {url}.' with the real address when the browser cannot load it", () => {
    render(<VideoPlayer video={video} />, { wrapper: Providers });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    fireEvent.error(screen.getByTestId('video-player'));
    expect(screen.getByRole('alert')).toHaveTextContent(`Load failed from ${video.url}.`);
    expect(screen.queryByTestId('video-player')).not.toBeInTheDocument();
  });

  it('gives a new address a fresh try after a failed one', () => {
    const { rerender } = render(<VideoPlayer video={video} />, { wrapper: Providers });
    fireEvent.error(screen.getByTestId('video-player'));
    const fresh = { ...video, id: 8, url: 'http://127.0.0.1:4569/patrol-videos/8.webm' };
    rerender(<VideoPlayer video={fresh} />);
    expect(screen.getByTestId('video-player')).toHaveAttribute('src', fresh.url);
  });

  it("says 'No video record' when the check has no recording", () => {
    render(<VideoPlayer video={null} />, { wrapper: Providers });
    expect(screen.getByText('No video record')).toBeInTheDocument();
  });
});
