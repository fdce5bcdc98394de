import { defineTranslations } from './translations';

/** Being called back: notifications and what they say. */
export const attentionStrings = defineTranslations({
  en: {
    'notify.heading': 'Notifications',
    'notify.explain': 'Parley can tell you when it is waiting for you (a question, a tool to allow, a server’s form) while no tab of it is in view. The icon’s badge always counts what waits.',
    'notify.turnOn': 'Notify me when Parley is waiting for me',
    'notify.turnOff': 'Turn off notifications',
    'notify.on': 'Notifications are on for this browser.',
    'notify.blocked': 'This browser blocks notifications from Parley. Allow them in the site’s settings, then reload.',
    'notify.unsupported': 'This browser cannot show notifications.',
    'notify.question': 'Parley asks: {header}',
    'notify.approval': 'Allow {tool}?',
    'notify.elicitation': '{server} asks you to fill in a form',
  },
  'zh-CN': {
    'notify.heading': '通知',
    'notify.explain': '当 Parley 在等你（一个问题、一个待允许的工具、服务器的表单）而它的标签页都不在前台时，Parley 可以通知你。图标上的数字始终显示有多少事项在等待。',
    'notify.turnOn': 'Parley 等我时通知我',
    'notify.turnOff': '关闭通知',
    'notify.on': '此浏览器已开启通知。',
    'notify.blocked': '此浏览器阻止了 Parley 的通知。请在网站设置中允许通知，然后重新加载。',
    'notify.unsupported': '此浏览器无法显示通知。',
    'notify.question': 'Parley 问：{header}',
    'notify.approval': '允许 {tool} 吗？',
    'notify.elicitation': '{server} 请你填写一个表单',
  },
});
