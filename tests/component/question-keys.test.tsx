import { describe, expect, it } from 'vitest';
import { questionKeyAction, type QuestionKeyPress } from '../../src/ui/question/state/question-keys';

const press = (key: string, extra: Partial<QuestionKeyPress> = {}): QuestionKeyPress => ({
  key,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  composing: false,
  target: 'choice',
  ...extra,
});

describe('questionKeyAction', () => {
  it('maps digits, Enter and Esc on a choice', () => {
    expect(questionKeyAction(press('3'))).toEqual({ kind: 'pick', digit: 3 });
    expect(questionKeyAction(press('Enter'))).toEqual({ kind: 'submit' });
    expect(questionKeyAction(press('Escape'))).toEqual({ kind: 'dismiss' });
    expect(questionKeyAction(press('ArrowDown'))).toEqual({ kind: 'arrow' });
  });

  it('leaves the Other text its own keys: digits type, Shift+Enter breaks the line, Esc only leaves it', () => {
    expect(questionKeyAction(press('3', { target: 'text' }))).toEqual({ kind: 'none' });
    expect(questionKeyAction(press('Enter', { target: 'text', shiftKey: true }))).toEqual({ kind: 'none' });
    expect(questionKeyAction(press('Enter', { target: 'text' }))).toEqual({ kind: 'submit' });
    expect(questionKeyAction(press('Escape', { target: 'text' }))).toEqual({ kind: 'leave-text' });
  });

  it('stays out of the way of buttons, shortcuts and input methods', () => {
    expect(questionKeyAction(press('Enter', { target: 'button' }))).toEqual({ kind: 'none' });
    expect(questionKeyAction(press('1', { ctrlKey: true }))).toEqual({ kind: 'none' });
    expect(questionKeyAction(press('0'))).toEqual({ kind: 'none' });
    expect(questionKeyAction(press('Enter', { composing: true }))).toEqual({ kind: 'none' });
    expect(questionKeyAction(press('Escape', { composing: true }))).toEqual({ kind: 'none' });
  });
});
