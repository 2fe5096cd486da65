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
};
