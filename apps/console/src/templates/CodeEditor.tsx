import {
  autocompletion,
  type CompletionContext,
  type CompletionResult,
  completionKeymap,
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { html } from '@codemirror/lang-html';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, lintKeymap, setDiagnostics } from '@codemirror/lint';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { mergeTagAt } from './merge-tags';

/** What `{{` and `{{>` complete from. */
export interface MergeTags {
  parameters: readonly string[];
  components: readonly string[];
}

/** A problem to mark: on its line when the preview named one, else on the whole text. */
export interface EditorProblem {
  line: number | undefined;
  message: string;
}

/**
 * CodeMirror for a template field, with merge-tag completion and the preview's problems marked.
 * CodeMirror injects its styles as `<style>` elements: they carry the page's CSP nonce, or the
 * policy refuses them. It starts from `initial`; the parent remounts it (a `key`) for other content.
 */
export function CodeEditor({
  labelledBy,
  initial,
  language,
  readOnly,
  tags,
  problems,
  onChange,
}: {
  labelledBy: string;
  initial: string;
  language: 'html' | 'text' | 'json';
  readOnly: boolean;
  tags: MergeTags;
  problems: readonly EditorProblem[];
  onChange: (value: string) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The editor is built once; what changes later is read through refs.
  const latest = useRef({ tags, onChange });
  useEffect(() => {
    latest.current = { tags, onChange };
  });

  useEffect(() => {
    if (host.current === null) return;
    const complete = (context: CompletionContext): CompletionResult | null => {
      const line = context.state.doc.lineAt(context.pos);
      const at = mergeTagAt(line.text.slice(0, context.pos - line.from));
      if (at === null) return null;
      const names = at.kind === 'component' ? latest.current.tags.components : latest.current.tags.parameters;
      return {
        from: line.from + at.from,
        options: names.map((label) => ({
          label,
          type: at.kind === 'component' ? 'class' : 'variable',
          detail: at.kind === 'component' ? 'component' : 'recent parameter',
        })),
        validFor: /^[\w.$-]*$/,
      };
    };
    const extensions: Extension[] = [
      EditorView.cspNonce.of(document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? ''),
      EditorView.contentAttributes.of({ 'aria-labelledby': labelledBy }),
      EditorView.lineWrapping,
      EditorState.readOnly.of(readOnly),
      EditorView.editable.of(!readOnly),
      history(),
      autocompletion({ override: [complete] }),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap, ...lintKeymap]),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) latest.current.onChange(update.state.doc.toString());
      }),
    ];
    if (language === 'html') extensions.push(html(), lineNumbers());
    if (language === 'json')
      extensions.push(placeholder('[{"type": "section", "text": {"type": "mrkdwn", "text": "…"}}]'));
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({ doc: initial, extensions }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // Built once per mount: the parent remounts it for other content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (editor === null) return;
    const { doc } = editor.state;
    const diagnostics: Diagnostic[] = problems.map(({ line, message }) => {
      if (line === undefined || line < 1 || line > doc.lines)
        return { from: 0, to: doc.length, severity: 'error', message };
      const at = doc.line(line);
      return { from: at.from, to: at.to, severity: 'error', message };
    });
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [problems]);

  return <div ref={host} className={`code-editor code-editor-${language}`} />;
}
