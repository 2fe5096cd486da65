// Texts of issue 43's bounds and limits: the longest maintenance window, refusals of limits.
export const holes43 = {
  'Longest maintenance window': '维护窗口最长时间',
  'A one-off maintenance window may last at most this long, and none ends more than a year ahead.':
    '一次性维护窗口最长持续这么久，且任何窗口的结束时间都不能超过一年之后。',
  'At most {max} maintenance windows can be enabled at once.': '最多只能同时启用 {max} 个维护窗口。',
  'A window lasts at most {days} days': '维护窗口最长 {days} 天',
  'A window ends at most a year ahead': '维护窗口的结束时间最多在一年之后',
  'Too many maintenance windows are enabled.': '已启用的维护窗口太多。',
};
