import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useStore } from './store.ts';

interface Props {
  /** What is shown here, for the message and the record: "This email", "The rules". */
  area: string;
  /** A new key (another email, another view) tries again. */
  resetKey?: unknown;
  /** Ways on from the message: the raw view, a reload. */
  actions?: ReactNode;
  children: ReactNode;
}

interface State {
  error: Error | null;
  resetKey: unknown;
}

/**
 * What one part of the window cannot render stays in that part: a message in
 * its place, the rest of the app (the list, the keys) goes on, and the error
 * is recorded (the store's problems, and the console). Without it React
 * unmounts the whole root: an empty window.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    useStore.getState().recordProblem(this.props.area, error, info.componentStack ?? '');
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="render-error" role="alert" data-render-error={this.props.area}>
        <p>
          {this.props.area} could not be shown: {error.message || 'an unexpected error'}. The rest of Inbox Desk goes on as before.
        </p>
        {this.props.actions && <div className="form-actions">{this.props.actions}</div>}
      </div>
    );
  }
}
