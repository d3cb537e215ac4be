import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useStore } from 'zustand';
import type { AssemblyNode } from '../engine';
import { formatNumber } from './format';
import { setAssemblyHover } from './assembly';
import { inspectStore } from './stores';

/** A node by its path of child indices ("0" the root, "0/2/1" ...). */
export function nodeAt(root: AssemblyNode, path: string): AssemblyNode | null {
  const parts = path.split('/').map(Number);
  let node: AssemblyNode | undefined = root;
  for (const i of parts.slice(1)) node = node?.children[i];
  return node ?? null;
}

interface Row {
  path: string;
  node: AssemblyNode;
  level: number;
  parent: string | null;
}

function visibleRows(root: AssemblyNode, expanded: ReadonlySet<string>): Row[] {
  const rows: Row[] = [];
  const walk = (node: AssemblyNode, path: string, level: number, parent: string | null) => {
    rows.push({ path, node, level, parent });
    if (expanded.has(path)) node.children.forEach((c, i) => walk(c, `${path}/${i}`, level + 1, path));
  };
  walk(root, '0', 1, null);
  return rows;
}

function Matrix({ m, label }: { m: readonly (readonly number[])[]; label: string }) {
  return (
    <>
    <p className="matrix-label">{label}</p>
    <table className="matrix" aria-label={label}>
      <tbody>
        {m.slice(0, 3).map((row, i) => (
          <tr key={i}>
            {row.map((v, j) => (
              <td key={j}>{formatNumber(Number(v.toPrecision(6)))}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
    </>
  );
}

/**
 * inspect_assembly's tree (ARIA tree: Up/Down move, Right expands or enters, Left collapses or goes
 * up, Enter expands or collapses, Home/End). Hover or focus highlights the body the file became and
 * marks the node's world placement; the selected node shows its transforms.
 */
export function AssemblyTree() {
  const assembly = useStore(inspectStore, (s) => s.assembly);
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(['0']));
  const [focused, setFocused] = useState('0');
  const [selected, setSelected] = useState<string | null>(null);
  const treeRef = useRef<HTMLUListElement>(null);
  const root = assembly?.tree;
  const rows = useMemo(() => (root ? visibleRows(root, expanded) : []), [root, expanded]);
  if (!assembly || !root) return null;

  const toggle = (path: string, open?: boolean) =>
    setExpanded((s) => {
      const next = new Set(s);
      if (open ?? !next.has(path)) next.add(path);
      else next.delete(path);
      return next;
    });
  const move = (path: string) => {
    setFocused(path);
    setAssemblyHover(path);
    treeRef.current?.querySelector<HTMLElement>(`[data-path="${path}"]`)?.focus();
  };
  const onKey = (e: KeyboardEvent, row: Row) => {
    const i = rows.findIndex((r) => r.path === row.path);
    const hasChildren = row.node.children.length > 0;
    const open = expanded.has(row.path);
    let handled = true;
    switch (e.key) {
      case 'ArrowDown':
        if (rows[i + 1]) move(rows[i + 1]!.path);
        break;
      case 'ArrowUp':
        if (rows[i - 1]) move(rows[i - 1]!.path);
        break;
      case 'ArrowRight':
        if (hasChildren && !open) toggle(row.path, true);
        else if (hasChildren) move(`${row.path}/0`);
        break;
      case 'ArrowLeft':
        if (hasChildren && open) toggle(row.path, false);
        else if (row.parent) move(row.parent);
        break;
      case 'Enter':
      case ' ':
        if (hasChildren) toggle(row.path);
        setSelected(row.path);
        break;
      case 'Home':
        move('0');
        break;
      case 'End':
        if (rows.length) move(rows[rows.length - 1]!.path);
        break;
      default:
        handled = false;
    }
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  };
  const detail = selected ? nodeAt(root, selected) : null;
  return (
    <section className="panel assembly" aria-label="Assembly tree" data-testid="assembly.tree">
      <h2>Assembly</h2>
      <p className="hint">
        {assembly.source}
        {assembly.bodyId ? ` · hover highlights body ${assembly.bodyId} and marks the instance's placement` : ' · not in the scene: placements only'}
      </p>
      <ul className="tree" role="tree" aria-label={`Assembly of ${assembly.source}`} ref={treeRef} onMouseLeave={() => setAssemblyHover(null)}>
        {rows.map((row) => {
          const hasChildren = row.node.children.length > 0;
          const open = expanded.has(row.path);
          return (
            <li
              key={row.path}
              role="treeitem"
              aria-level={row.level}
              aria-expanded={hasChildren ? open : undefined}
              aria-selected={selected === row.path}
              tabIndex={focused === row.path ? 0 : -1}
              data-path={row.path}
              data-testid="assembly.node"
              className={`tree-row${selected === row.path ? ' selected' : ''}`}
              style={{ paddingLeft: 6 + (row.level - 1) * 14 }}
              onKeyDown={(e) => onKey(e, row)}
              onFocus={() => {
                setFocused(row.path);
                setAssemblyHover(row.path);
              }}
              onMouseEnter={() => setAssemblyHover(row.path)}
              onClick={() => {
                setFocused(row.path);
                setSelected(row.path);
                if (hasChildren) toggle(row.path);
              }}
            >
              <span className="twisty" aria-hidden="true">
                {hasChildren ? (open ? '▾' : '▸') : '·'}
              </span>
              <span className="tree-name">{row.node.name || '(unnamed)'}</span>
              {row.node.shape && <span className="tree-kind">{row.node.shape}</span>}
              {hasChildren && <span className="tree-kind">{row.node.children.length}</span>}
              {row.node.truncated && <span className="tree-kind">depth cut</span>}
            </li>
          );
        })}
      </ul>
      {detail && (
        <div className="tree-detail" data-testid="assembly.detail">
          <p>
            <strong>{detail.name || '(unnamed)'}</strong>
            {detail.label ? <span className="hint"> · label {detail.label}</span> : null}
            {detail.shape ? <span className="hint"> · {detail.shape}</span> : null}
          </p>
          <Matrix m={detail.transform} label="transform (relative to parent, rows 1–3)" />
          <Matrix m={detail.worldTransform} label="worldTransform (rows 1–3)" />
        </div>
      )}
    </section>
  );
}
