// Texts of the reports' schedule in the system config (issue 46 item 1; the config form is generated
// from shared/schemas/systemConfig.ts). The Reports screens' texts are the screens' own file.
export const reportsConfig = {
  Reports: '报告',
  'Report language': '报告语言',
  'The PDF and the Telegram summary of every report are written in this language.':
    '每份报告的 PDF 和 Telegram 摘要都使用此语言。',
  'Daily report': '日报',
  'Daily report time': '日报时间',
  "HH:mm in the configured time zone: yesterday's report is sent to the check chat then.":
    'HH:mm，按配置的时区：届时把昨天的报告发送到检查群。',
  'Weekly report': '周报',
  'Weekly report day': '周报日',
  'Monday is 1, Sunday 7: the previous week, Monday to Sunday, is sent that day.':
    '周一为 1，周日为 7：当天发送上一周（周一至周日）的报告。',
  'Weekly report time': '周报时间',
  'Monthly report': '月报',
  'Monthly report day': '月报日',
  'Day of the month (1-28): the previous month is sent that day.': '每月的第几天（1-28）：当天发送上个月的报告。',
  'Monthly report time': '月报时间',
  // The config's refusals of these fields (shared/schemas/reports.ts ReportMessages).
  'Time must be HH:mm, 00:00 to 23:59': '时间格式须为 HH:mm，00:00 至 23:59',
  'Weekday must be 1 (Monday) to 7 (Sunday)': '星期须为 1（周一）至 7（周日）',
  'Day must be 1 to 28 (every month has it)': '日期须为 1 至 28（每个月都有这些日期）',
  'Language must be en or zh': '语言须为 en 或 zh',
};
