// Texts of issue 45's bank incidents: the incidents list's kind, bank and account, and a bank
// incident's own actions.
export const bankIncidents45 = {
  'Alert rule': '告警规则',
  'Alert rule {name}': '告警规则 {name}',
  'Poll now': '立即轮询',
  'Disable account': '停用账户',
  'Polled now': '已立即轮询',
  'Account disabled': '账户已停用',
  'Polled.': '已轮询。',
  'Account disabled.': '账户已停用。',
};
