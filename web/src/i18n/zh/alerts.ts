// Texts of the alerting screens: roles, incidents, maintenance windows, Telegram linking.
export const alerts = {
  Viewer: '只读用户',
  'Your role can read only.': '您的角色只能查看。',
  'Your role is Viewer: you can read, but not change anything or reveal secrets. Ask a super user for the Operator role.':
    '您的角色是只读用户：可以查看，但不能修改任何内容或查看密钥。请联系超级管理员授予操作员角色。',
  Reason: '原因',
  'Wrong password': '密码错误',
  'Unknown username': '用户名不存在',
  Throttled: '频率限制',
  Disabled: '已停用',
};
