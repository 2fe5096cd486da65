// Which pages of one list query (everything but the page) the table has shown, to tell the server
// when it jumped. The server keeps where each page starts (a cursor) when it serves the page before
// it, and a jumped-to page keeps its own start: a page shown before, or the one after a shown page,
// has a cursor to look up. Any other page past the first is a jump, and the call says so
// (HEADERS.listJump): the server reads the pages up to it at once instead of looking for a cursor
// first. A wrong guess only costs speed, never rows: the page is the same either way.

export class PageVisits {
  private query = '';
  private readonly pages = new Set<number>();

  /** True when asking for `page` of `query` (its params without the page) is a jump. */
  isJump(query: string, page: number): boolean {
    if (query !== this.query) return page > 1;
    return page > 1 && !this.pages.has(page) && !this.pages.has(page - 1);
  }

  /** Records that `page` of `query` was shown; another query starts afresh. */
  shown(query: string, page: number): void {
    if (query !== this.query) {
      this.query = query;
      this.pages.clear();
    }
    this.pages.add(page);
  }
}
