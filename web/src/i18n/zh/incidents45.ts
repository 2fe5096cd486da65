// Texts of issue 45's incident parts: severity, correlated (parent) incidents, group wait, escalation
// and the control site.
export const incidents45 = {
  Severity: '严重程度',
  Info: '提示',
  Warning: '警告',
  Critical: '严重',
  Cause: '原因',
  'Same check': '同一检查',
  'Same bank': '同一银行',
  'Checker unhealthy': '检查器异常',
  Parent: '父事件',
  Children: '子事件',
  Escalated: '已升级',
  Grouped: '已归组',
  'Escalate after': '升级等待',
  'An open incident nobody acknowledged, snoozed or paused goes to the escalation chat after this long, then to every linked super user after as long again. Critical ones escalate at once, info ones never; 0 turns escalation off.':
    '无人确认、静音或暂停的事件在此时长后升级到升级会话，再过同样时长后发送给每位已关联的超级管理员。严重事件立即升级，提示事件从不升级；0 表示关闭升级。',
  'Group a check failing on': '同一检查失败站点数达到',
  sites: '个站点',
  'This many sites failing the same check (process and mode) within the window below share one parent incident and one message; 0 never groups them.':
    '在下面的时间窗口内，达到此数量的站点在同一检查（流程和模式）上失败时，归入一个父事件并只发送一条消息；0 表示从不归组。',
  'Grouping window': '归组时间窗口',
  'Group wait': '归组等待',
  "A new incident's first message waits this long for others of the same cause, so a burst makes one message.":
    '新事件的第一条消息会等待此时长，以便同一原因的其他事件归入，一阵集中的失败只发送一条消息。',
  'Escalation chat ID': '升级会话 ID',
  'Incidents nobody acknowledges are escalated to this chat first, then to the linked super users.':
    '无人确认的事件先升级到此会话，然后发送给已关联的超级管理员。',
  Control: '对照站点',
  'control must be true or false': 'control 必须是 true 或 false',
  'A known-good site: when its check fails, the other failures of those minutes are put under one "Checker unhealthy" incident.':
    '已知正常的站点：它的检查失败时，同一时段的其他失败会归入一个“检查器异常”事件。',
  '{count} children': '{count} 个子事件',
  'Children of incident #{id}': '事件 #{id} 的子事件',
  'Show children': '显示子事件',
  'Hide children': '隐藏子事件',
  'Escalated to {to}': '已升级至 {to}',
};
