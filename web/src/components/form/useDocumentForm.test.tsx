import { act, renderHook, waitFor } from '@testing-library/react';
import type { FormEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api/ApiError';
import { useDocumentForm } from './useDocumentForm';

type Doc = { name: string; version: number };
const submitEvent = { preventDefault: () => undefined } as FormEvent;
const check = (d: { name: string }) => (d.name.trim() ? { body: d } : { errors: { name: 'Name is required' } });

function setup(save = vi.fn(async (body: { name: string }) => body)) {
  const hook = renderHook(
    ({ document }: { document: Doc | undefined }) =>
      useDocumentForm({ document, toDraft: (d: Doc) => ({ name: d.name }), check, save }),
    { initialProps: { document: { name: 'first', version: 1 } as Doc | undefined } },
  );
  return { ...hook, save };
}

describe('useDocumentForm', () => {
  it('shows a rule’s message only after a first submit, and sends nothing while it holds', async () => {
    const { result, save } = setup();
    act(() => result.current.edit('name', () => ({ name: ' ' })));
    expect(result.current.errors).toEqual({});
    await act(() => result.current.submit(submitEvent));
    expect(result.current.errors).toEqual({ name: 'Name is required' });
    expect(save).not.toHaveBeenCalled();
    act(() => result.current.edit('name', () => ({ name: 'second' })));
    expect(result.current.errors).toEqual({});
    await act(() => result.current.submit(submitEvent));
    expect(save).toHaveBeenCalledWith({ name: 'second' });
  });

  it('marks the paths the server refused until they change, and keeps the draft', async () => {
    const refused = new ApiError({ status: 400, code: 4001, msg: 'Invalid input.', extra: { 'name.first': 'Taken' } });
    const { result } = setup(vi.fn(async () => Promise.reject(refused)));
    act(() => result.current.edit('name', () => ({ name: 'taken' })));
    await act(() => result.current.submit(submitEvent));
    expect(result.current.errors).toEqual({ 'name.first': 'Taken' });
    expect(result.current.draft).toEqual({ name: 'taken' });
    act(() => result.current.edit('name', () => ({ name: 'free' })));
    expect(result.current.errors).toEqual({});
  });

  it('takes a new document (saved, restored, changed elsewhere) as the draft, and Reset goes back to it', async () => {
    const { result, rerender } = setup();
    act(() => result.current.edit('name', () => ({ name: 'typed' })));
    rerender({ document: { name: 'from server', version: 2 } });
    await waitFor(() => expect(result.current.draft).toEqual({ name: 'from server' }));
    act(() => result.current.edit('name', () => ({ name: 'typed again' })));
    act(() => result.current.reset());
    expect(result.current.draft).toEqual({ name: 'from server' });
  });
});
