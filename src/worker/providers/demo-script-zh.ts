import type { Script } from '../../schema/script';

/** The built-in demo in Simplified Chinese: the same steps as the English one (demo-script.ts), written for zh-CN. */
export const demoScriptZh = {
  steps: [
    {
      reasoning: '用户写道：“{{lastUserMessage}}”。没有连接真正的模型，所以我按演示脚本来：一起规划周末。未知的太多，猜不准，先问问。',
      text:
        '你好！你说：“{{lastUserMessage}}”。\n\n' +
        '我是 Parley 的内置**脚本演示**——还没有连接任何 AI 模型，所以我按一个小脚本来回答。' +
        '我们一起来规划一个周末吧。\n\n' +
        '与其猜，我更愿意先问，所以这里有三个简短的问题。' +
        '选一个选项、勾选多个，或写下你自己的答案——也可以直接输入一条普通回复。',
      toolCalls: [
        {
          name: 'question',
          args: {
            questions: [
              {
                header: '心情',
                question: '你想过一个什么样的周末？',
                options: [
                  { label: '慢悠悠、舒舒服服', description: '睡个懒觉，慢慢吃早餐，读一本好书。' },
                  { label: '出门走走', description: '逛市集、散步，去一个还没去过的街区。' },
                  { label: '来一场大冒险', description: '早早出发，玩上一整天。' },
                ],
                multiple: false,
                custom: false,
              },
              {
                header: '活动',
                question: '下面哪些你会喜欢？想选几个都行。',
                options: [{ label: '美食' }, { label: '大自然' }, { label: '博物馆和文化' }, { label: '运动' }, { label: '桌游' }],
                multiple: true,
                custom: false,
              },
              {
                header: '同伴',
                question: '谁和你一起？',
                options: [{ label: '就我自己' }, { label: '我的伴侣' }, { label: '朋友' }, { label: '带孩子的家人' }],
                multiple: false,
                custom: true,
              },
            ],
          },
        },
      ],
    },
    {
      text:
        '谢谢！这正是表单返回的内容：\n\n' +
        '> {{lastToolResult}}\n\n' +
        '真正的模型会根据这些回答来定制计划；我只是一个脚本，只能给你看看这样的计划是什么样子。\n\n' +
        '## 你的周末计划\n\n' +
        '### 星期六\n\n' +
        '- **上午：**慢慢吃个早餐，然后散步去市集。\n' +
        '- **下午：**做你选的第一项活动——不定闹钟，不赶时间。\n' +
        '- **晚上：**一起做一道新菜，或者去那家你总是路过的店试试。\n\n' +
        '### 星期日\n\n' +
        '- **上午：**呼吸新鲜空气：公园、河边，或能看风景的小山。\n' +
        '- **下午：**安排点室内活动，以防下雨。\n' +
        '- **晚上：**早点休息，准备迎接星期一。\n\n' +
        '| 时间 | 安排 | 花费 |\n' +
        '| --- | --- | --- |\n' +
        '| 周六上午 | 市集和早餐 | 低 |\n' +
        '| 周六晚上 | 晚餐 | 中 |\n' +
        '| 周日下午 | 博物馆或桌游 | 低 |\n\n' +
        '发送任意一条消息，看看这个演示怎么结尾。',
    },
    {
      text:
        '这就是 Parley 的脚本演示。🎬\n\n' +
        '你刚才看到的一切——流式输出的文字、提问表单、Markdown——都来自一个在你的浏览器里运行的小小 JSON 脚本，' +
        '不需要网络，也不需要密钥。\n\n' +
        '### 按你的需要来\n\n' +
        '- 在 **设置 → 脚本** 中**编写你自己的脚本**。脚本的第 *n* 步就是对第 *n* 次模型调用的回复；' +
        '每一步可以有 `text`、`reasoning` 和 `toolCalls`，文字中可以引用上一条用户消息或上一个工具结果。\n' +
        '- 在 **设置** 中**连接真正的模型**：任何 OpenAI 兼容的服务器（OpenAI、OpenRouter、Ollama、LM Studio、llama.cpp、vLLM）或 Anthropic。' +
        '你的密钥只保存在这个浏览器里，只会发送给你选择的提供方。\n\n' +
        '无论你选哪一种，这个智能体都会先问，再猜。',
    },
  ],
} satisfies Script;
