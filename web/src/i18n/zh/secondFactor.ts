// The second factor (docs/sign-in.md): the login's second step and enrolment, /setting/security,
// the users screen's reset, the policy in the system config, and the server's texts for them.
export const secondFactor: Record<string, string> = {
  'Two-step sign-in': '两步登录',
  'Set up two-step sign-in': '设置两步登录',
  'Code from the authenticator app': '身份验证器应用中的验证码',
  'Recovery code': '恢复码',
  'Recovery codes': '恢复码',
  'Enter the 6-digit code your authenticator app shows for Patrol.':
    '请输入身份验证器应用为 Patrol 显示的 6 位验证码。',
  'Enter one of your recovery codes. Each works once.': '请输入一个恢复码。每个恢复码只能使用一次。',
  Verify: '验证',
  'Use a recovery code': '使用恢复码',
  'Use the authenticator app': '使用身份验证器应用',
  'Your account needs a second factor. Set up an authenticator app to continue.':
    '你的账号需要第二重验证。请先设置身份验证器应用再继续。',
  'Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).':
    '用身份验证器应用（Google Authenticator、Microsoft Authenticator、1Password 等）扫描此二维码。',
  'QR code for the authenticator app': '身份验证器应用的二维码',
  'Or type this key into the app:': '或在应用中手动输入此密钥：',
  'Keep these recovery codes somewhere safe. Each signs in once without the app; they are not shown again.':
    '请妥善保存这些恢复码。每个恢复码可在没有应用时登录一次；它们不会再次显示。',
  Download: '下载',
  'Continue to the console': '进入控制台',
  Security: '安全',
  'Two-step sign-in: a code or a passkey after the password.': '两步登录：输入密码后，再用验证码或通行密钥确认。',
  'Authenticator app': '身份验证器应用',
  'Recovery codes left: {n}': '剩余恢复码：{n} 个',
  'New recovery codes': '生成新的恢复码',
  'Remove the app': '移除应用',
  'Sign in with a code from an app on your phone as well as your password.':
    '登录时除密码外，还需输入手机应用中的验证码。',
  'Set up the authenticator app': '设置身份验证器应用',
  'Enter a current code to remove the app. You will be signed out everywhere.':
    '输入当前验证码以移除应用。你将在所有设备上退出登录。',
  'Enter a current code. The recovery codes you have now stop working.': '输入当前验证码。你现有的恢复码将全部失效。',
  'Reset second factor': '重置第二重验证',
  "{username}'s authenticator app, recovery codes and passkeys are removed and their sessions end. They sign in with the password again, and set up a second factor if one is required.":
    '将移除 {username} 的身份验证器应用、恢复码和通行密钥，并结束其所有会话。该用户需重新用密码登录，如有要求须再次设置第二重验证。',
  'Second factor reset': '第二重验证已重置',
  'Reset second factor failed': '重置第二重验证失败',
  'Wrong code.': '验证码错误。',
  'This code was used already, wait for the next one.': '此验证码已使用过，请等待下一个验证码。',
  'This sign-in has expired, please sign in again.': '本次登录已过期，请重新登录。',
  'Start setting up the authenticator app first.': '请先开始设置身份验证器应用。',
  'An authenticator app is set up already.': '已设置身份验证器应用。',
  'No authenticator app is set up.': '尚未设置身份验证器应用。',
  'Too many wrong codes, try again later.': '验证码错误次数过多，请稍后再试。',
  'Something went wrong, try again.': '出错了，请重试。',
  'The code has 6 digits': '验证码为 6 位数字',
  'Please input the code': '请输入验证码',
  'Second factor required of': '需要第二重验证的用户',
  Nobody: '无',
  'Super users': '超级用户',
  Everyone: '所有用户',
  'A user it covers who has no authenticator app or passkey sets one up right after the password, and reaches nothing else before.':
    '被要求的用户若没有身份验证器应用或通行密钥，输入密码后须立即设置，设置完成前无法进入控制台。',
  'Wrong second-factor code': '第二重验证码错误',
  'Expired sign-in': '登录已过期',
  // Adding a factor from a session asks for the current password.
  'A new way to sign in is added only with your password.': '添加新的登录方式需要验证您的密码。',
  'Current password is wrong': '当前密码错误',
  'Could not set up the authenticator app.': '设置身份验证器应用失败。',
};
