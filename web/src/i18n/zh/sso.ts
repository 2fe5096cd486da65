// Texts of single sign-on (issue 43, item 2): the login page's button and refusals, and the
// system config's Single sign-on section.
export const sso = {
  or: '或',
  'Sign in with {name}': '使用 {name} 登录',
  'Signing in…': '正在登录…',
  'Single sign-on is not set up.': '尚未设置单点登录。',
  'Single sign-on failed, please try again.': '单点登录失败，请重试。',
  'Your account at the identity provider is not a Patrol user. Ask a super user to add you.':
    '您在身份提供方的账号不是 Patrol 用户。请联系超级管理员添加。',
  'This single sign-on has expired, please sign in again.': '本次单点登录已过期，请重新登录。',
  'The identity provider did not answer, please try again later.': '身份提供方没有响应，请稍后再试。',
  'This account is disabled, please contact your administrator': '该账号已被禁用，请联系管理员',
  'Single sign-on': '单点登录',
  'Button name': '按钮名称',
  'The login page shows "Sign in with <name>".': '登录页显示“使用 <名称> 登录”。',
  'Issuer URL': '签发方（Issuer）URL',
  'The OpenID Connect issuer, e.g. https://accounts.google.com. Register the redirect URI <console>/api/v1/auth/oidc/callback at the provider.':
    'OpenID Connect 签发方，例如 https://accounts.google.com。请在身份提供方登记回调地址 <控制台地址>/api/v1/auth/oidc/callback。',
  'Client ID': '客户端 ID',
  'Client secret': '客户端密钥',
  'Kept encrypted, apart from this document; saved with its own button.':
    '加密保存，不在本配置文档中；用它自己的按钮保存。',
  'Claim naming the user': '标识用户的声明',
  'A Patrol user whose username is this claim (any case) signs in; nobody else. Users are never created here.':
    '用户名与该声明相同（不区分大小写）的 Patrol 用户才能登录；不会自动创建用户。',
  "Provider's MFA counts as second factor": '身份提供方的多因素认证视为第二因素',
  Never: '从不',
  'When amr shows it': '当 amr 声明显示时',
  'When acr shows it': '当 acr 声明显示时',
  'MFA values': '多因素认证取值',
  'amr values (any one) or acr values that mean the user passed MFA, e.g. mfa.':
    '表示用户已通过多因素认证的 amr 取值（任一即可）或 acr 取值，例如 mfa。',
  On: '开',
  Off: '关',
  'Set: {hint}': '已设置：{hint}',
  'Save secret': '保存密钥',
  Clear: '清除',
  'Secret saved': '密钥已保存',
  'Secret cleared': '密钥已清除',
  'Save secret failed': '保存密钥失败',
  'Please input the name shown on the button': '请输入按钮上显示的名称',
  'The issuer is an http(s) URL without user name, query or fragment':
    '签发方须为不含用户名、查询参数或片段的 http(s) URL',
  'Please input the issuer URL': '请输入签发方 URL',
  'Please input the client id': '请输入客户端 ID',
  'List the amr or acr values that show MFA': '请列出表示多因素认证的 amr 或 acr 取值',
  'Values are 1 to 100 characters without spaces': '取值为 1 到 100 个字符，不含空格',
  'The client secret is 1 to 512 characters': '客户端密钥为 1 到 512 个字符',
  'The issuer must be an https URL': '签发方必须是 https URL',
};
