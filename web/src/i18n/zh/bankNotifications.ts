// Texts of the bank notification screens (features/bankNotifications) and the webhook's paused state.
export const bankNotificationsTexts: Record<string, string> = {
  // tabs, dialog
  'Notifications Bank History': '银行通知推送记录',
  'Notification Details': '通知详情',
  'Push History': '推送记录',
  // columns
  'Business ID': '业务 ID',
  Context: '内容',
  'TG Pushed At': 'TG 推送时间',
  'TG Notify Status': 'TG 通知状态',
  'Webhook Pushed At': 'Webhook 推送时间',
  'Webhook Notify Status': 'Webhook 通知状态',
  'Notification ID': '通知 ID',
  'Callback URL': '回调地址',
  Params: '参数',
  Content: '正文',
  Code: '状态码',
  Response: '响应',
  // enums
  Statement: '流水',
  Balance: '余额',
  WebHook: 'WebHook',
  TG: 'TG',
  // push status
  NoNeed: '无需推送',
  Pushed: '已推送',
  // context
  'Not reconciled, difference {difference}': '未对平，差额 {difference}',
  '{user} not polled since {since}': '{user} 自 {since} 起未轮询',
  '{user} polled again at {at}': '{user} 于 {at} 恢复轮询',
  // replay
  Replay: '重新推送',
  'Replay Failed': '重新推送失败的通知',
  'Select notifications to send again': '请选择要重新推送的通知',
  'Replay success.': '重新推送成功。',
  'Replay failed.': '重新推送失败。',
  '{count} notification(s) sent again.': '已重新推送 {count} 条通知。',
  '{count} notification(s) not replayed.': '{count} 条通知未重新推送。',
  'Nothing to replay.': '没有需要重新推送的通知。',
  'Fetch bank notifications failed.': '获取银行通知失败。',
  'Fetch notification history failed.': '获取通知推送记录失败。',
  // the account's webhook, paused after too many failures
  'Paused after {count} failures': '连续失败 {count} 次后已暂停',
  'Webhook resumed.': 'Webhook 已恢复。',
  'Resume webhook failed.': '恢复 Webhook 失败。',
  // the secret that signs the account's webhook deliveries (Standard Webhooks)
  'Signing secret': '签名密钥',
  'Show signing secret': '显示签名密钥',
  'Hide signing secret': '隐藏签名密钥',
  'Show signing secret failed.': '显示签名密钥失败。',
  Rotate: '轮换',
  'Rotate signing secret': '轮换签名密钥',
  'Rotate the signing secret? Deliveries are signed with the new secret at once; the receiver rejects them until it verifies with the new one.':
    '确定轮换签名密钥？之后的推送立即使用新密钥签名，接收方改用新密钥验证之前会拒绝这些推送。',
  'Signing secret rotated.': '签名密钥已轮换。',
  'Rotate signing secret failed.': '轮换签名密钥失败。',
};
