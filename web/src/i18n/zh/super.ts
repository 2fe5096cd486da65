// User management (super area).
export const superTexts: Record<string, string> = {
  Users: '用户',
  NewUser: '新建用户',
  'New User': '新建用户',
  Role: '角色',
  Enabled: '启用',
  'Created At': '创建时间',
  'Updated At': '更新时间',
  'Reset password': '重置密码',
  'Reset password of {username}': '重置 {username} 的密码',
  'The user is signed out everywhere and signs in again with the new password.':
    '该用户将在所有设备上退出登录，并需使用新密码重新登录。',
  'Shown in the header and as creator of records; the username when empty.':
    '显示在页头及记录的创建人处；留空时使用用户名。',
  'Show password': '显示密码',
  'Hide password': '隐藏密码',
  'Please input password!': '请输入密码！',
  'Username may only contain letters, digits and . _ - @': '用户名只能包含字母、数字及 . _ - @',
  'Role must be super or operator': '角色必须是超级管理员或操作员',
  'min length is 3': '最少 3 个字符',
  'This username is already taken': '该用户名已被占用',
  'Add user success': '添加用户成功',
  'Add user failed': '添加用户失败',
  'Reset password success': '重置密码成功',
  'Reset password failed': '重置密码失败',
  'Fetch users failed.': '获取用户失败。',
};
