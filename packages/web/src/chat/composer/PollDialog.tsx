import { useState } from 'react';
import { Button, Dialog, Field, Icon, TextField } from '../../lib/ui/index.js';

const DURATIONS = [
  [1, '1 hour'],
  [4, '4 hours'],
  [8, '8 hours'],
  [24, '24 hours'],
  [72, '3 days'],
  [168, '1 week'],
] as const;

/** Create Poll: a question, 1-10 answers, a duration and multiselect. */
export function PollDialog({
  onClose,
  onCreate,
}: {
  onClose: () => void;
  onCreate: (p: { question: string; answers: string[]; duration: number; multiselect: boolean }) => void;
}) {
  const [question, setQuestion] = useState('');
  const [answers, setAnswers] = useState(['', '']);
  const [duration, setDuration] = useState(24);
  const [multi, setMulti] = useState(false);
  const filled = answers.map((a) => a.trim()).filter(Boolean);
  const post = () => {
    onCreate({ question: question.trim(), answers: filled, duration, multiselect: multi });
    onClose();
  };
  return (
    <Dialog
      title="Create a Poll"
      onClose={onClose}
      footer={
        <>
          <label className="row muted" style={{ marginRight: 'auto' }}>
            <input type="checkbox" checked={multi} onChange={(e) => setMulti(e.target.checked)} /> Allow multiple answers
          </label>
          <Button disabled={!question.trim() || !filled.length} onClick={post}>
            Post
          </Button>
        </>
      }
    >
      <TextField
        label="Question"
        value={question}
        maxLength={300}
        placeholder="What question do you want to ask?"
        onChange={(e) => setQuestion(e.target.value)}
      />
      <Field label="Answers">
        {() => (
          <div className="poll-edit">
            {answers.map((a, i) => (
              <div key={i} className="row">
                <input
                  className="input"
                  value={a}
                  maxLength={55}
                  placeholder="Type your answer"
                  aria-label={`Answer ${i + 1}`}
                  onChange={(e) => setAnswers((s) => s.map((x, j) => (j === i ? e.target.value : x)))}
                />
                {answers.length > 1 ? (
                  <button type="button" className="icon-btn" aria-label="Remove answer" onClick={() => setAnswers((s) => s.filter((_, j) => j !== i))}>
                    <Icon name="trash" size={16} />
                  </button>
                ) : null}
              </div>
            ))}
            {answers.length < 10 ? (
              <Button variant="secondary" size="sm" onClick={() => setAnswers((s) => [...s, ''])}>
                <Icon name="plus" size={14} /> Add another answer
              </Button>
            ) : null}
          </div>
        )}
      </Field>
      <Field label="Duration">
        {(id) => (
          <select id={id} className="select" value={duration} onChange={(e) => setDuration(Number(e.target.value))}>
            {DURATIONS.map(([h, l]) => (
              <option key={h} value={h}>
                {l}
              </option>
            ))}
          </select>
        )}
      </Field>
    </Dialog>
  );
}
