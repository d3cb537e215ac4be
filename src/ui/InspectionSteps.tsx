import { useId, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { SCAN_UNIT_NAMES, type BodySummary, type ScanUnit } from '../engine';
import { readInUnit } from './bodies';
import { alignBodies, alignedAsPlaced } from './alignment';
import { alignLength, rmsChange } from './alignWords';
import { warningText } from './warningWords';
import { AlignControls, AlignmentCard } from './AlignmentCard';

export { AlignButton } from './AlignmentCard';
import { alignRoles, compareBodies, comparePairs, downloadReport, inspectionPairs, markNominal, printReport, setColorOn, setPassShare, setTitleField, setTolerance } from './deviationReview';
import { formatCount, formatNumber } from './format';
import { LinkPlacementCard } from './LinkPlacementCard';
import { gdtStore } from './gdt';
import { nominalGeneralTolerance } from './pmiTolerance';
import { sameFileAs } from './sameFile';
import { canColorNominal, NO_DATA_WARNING_SHARE, nominalOf, verdictOf, verdictWithin } from './roles';
import { inspectStore, toolStore, type BodyEntry, type HeatState, type ShownError, type TitleBlock } from './stores';
import { useScene, useUnits } from './useStores';
import type { Units } from './units';

/**
 * The inspection journey (issue 29.2), as visible steps: Nominal -> Actual -> Align -> Compare ->
 * Report. Each says its state in words; the warnings that matter (not aligned, an ambiguous
 * alignment, a large no-data share) stop the user until they choose to go on.
 */

type StepState = 'todo' | 'done' | 'warn' | 'active';

function Step({ n, name, state, status, children }: { n: number; name: string; state: StepState; status: ReactNode; children?: ReactNode }) {
  return (
    <li className={`step ${state}`} data-testid={`step.${name.toLowerCase()}`} data-state={state}>
      <div className="step-head">
        <span className="step-n" aria-hidden="true">
          {state === 'done' ? '✓' : state === 'warn' ? '!' : n}
        </span>
        <strong>{name}</strong>
        <span className="step-status" data-testid={`step.${name.toLowerCase()}-status`}>
          {status}
        </span>
      </div>
      {children && <div className="step-body">{children}</div>}
    </li>
  );
}

/** Alignment warnings the card says in its own words: the outcome, and the ambiguity when the pose stayed ambiguous. */
function saidByTheCard(code: string, ambiguous: boolean): boolean {
  return code === 'ALREADY_ALIGNED' || code === 'NO_BETTER_POSE' || (code === 'SYMMETRIC_PART' && ambiguous);
}

const KIND_WORDS: Record<BodyEntry['summary']['kind'], string> = { brep: 'CAD model', mesh: 'mesh', points: 'point cloud' };

/** Where the body stands: as read, or what placed it (an applied alignment with its RMS). */
function placementWords(body: BodyEntry | undefined, units: Units): string | null {
  const p = body?.summary.placement;
  if (!p) return null;
  const by = p.setBy;
  return by.tool === 'align_bodies' ? `aligned to ${by.fixedBodyId}, ${rmsChange(by.rmsBefore, by.rmsAfter, units)}` : 'placed by set_placement';
}

/** The journey before any file: what to drop, in order (the page's drop target and demo sit in the viewport). */
export function JourneyIntro() {
  return (
    <section className="panel deviation-panel" aria-label="Inspection" data-testid="deviation.panel">
      <h2>Inspection</h2>
      <ol className="steps" data-testid="steps">
        <Step n={1} name="Nominal" state="active" status="drop the CAD model (STEP, IGES, BREP, XBF)" />
        <Step n={2} name="Actual" state="todo" status="then the scan (STL, PLY, OBJ) or point cloud (XYZ, PLY)" />
        <Step n={3} name="Align" state="todo" status="best fit of the actual onto the nominal" />
        <Step n={4} name="Compare" state="todo" status="deviation, actual minus nominal, against your tolerance" />
        <Step n={5} name="Report" state="todo" status="HTML and PDF with a title block" />
      </ol>
    </section>
  );
}

export function InspectionSteps() {
  const bodies = useScene((s) => s.bodies);
  const state = useStore(inspectStore);
  const running = !!useStore(toolStore, (s) => s.running);
  const roles = inspectionPairs()[0];
  const nominalId = roles?.nominal ?? nominalOf(bodies, state.nominalMark);
  const nominal = bodies.find((b) => b.bodyId === nominalId);
  // A lone scan or cloud (dropped first, or left when the CAD was removed) is the actual, waiting for its nominal.
  const actual = bodies.find((b) => b.bodyId === roles?.actual) ?? (!nominal && bodies.length === 1 ? bodies[0] : undefined);
  const units = useUnits([nominal?.bodyId, actual?.bodyId]);
  const heat = state.heat;
  const alignment = state.alignment;
  // An applied alignment is set through set_placement: its own card has the method and RMS.
  // (or the one applied before an answer that found nothing better, on show until it is dismissed).
  const own = alignment && alignment.origin !== 'link' ? (alignment.status === 'applied' ? alignment : alignment.prior) : undefined;
  const applied = own && own.status === 'applied' && own.movingBodyId === actual?.bodyId ? own : null;
  // "Already aligned" (align_bodies found the best fit where the actual stands): on show, or dismissed with OK.
  const asPlaced =
    alignment && alignment.origin !== 'link'
      ? alignment.status === 'proposed' && !alignment.prior && alignment.movingBodyId === actual?.bodyId && alignment.result.outcome === 'alreadyAligned'
        ? alignment.result.rmsBefore
        : null
      : (alignedAsPlaced(actual?.bodyId, nominal?.bodyId)?.rms ?? null);
  const placed = applied
    ? `aligned to ${applied.fixedBodyId}, ${rmsChange(applied.result.rmsBefore, applied.result.rmsAfter, units)}`
    : asPlaced !== null
      ? `already aligned to ${nominal?.bodyId}: the best fit is where it stands, RMS ${alignLength(asPlaced, units)}`
      : placementWords(actual, units);
  // ALREADY_ALIGNED confirms the pose; it is no reason for the step's warning sign.
  const alignWarnings = alignment && alignment.origin !== 'link' && alignment.movingBodyId === actual?.bodyId ? alignment.result.warnings.filter((w) => w.code !== 'ALREADY_ALIGNED') : [];
  const alignState: StepState = !actual || !nominal ? 'todo' : placed && alignWarnings.length === 0 ? 'done' : 'warn';
  const pendingWords = alignment?.origin !== 'link' && alignment?.status === 'proposed' ? (alignment.result.outcome === 'aligned' ? 'proposed, not applied yet' : 'no better pose found than where it stands') : null;
  const pair = comparePairs()[0];
  const twinOf = actual && nominal ? sameFileAs(actual.bodyId, bodies) : null;
  const twin = twinOf === nominal?.bodyId ? twinOf : null;
  const nominalIds = bodies.filter((b) => b.summary.kind !== 'points').map((b) => b.bodyId);
  const nominalSelect = useId();
  return (
    <ol className="steps" data-testid="steps">
      <Step n={1} name="Nominal" state={nominal ? 'done' : 'active'} status={nominal ? `${nominal.bodyId} · ${KIND_WORDS[nominal.summary.kind]}${nominal.summary.lengthUnit ? `, ${nominal.summary.lengthUnit}` : ''}` : 'drop the CAD model (STEP, IGES, BREP, XBF)'}>
        {nominalIds.length > 1 && (
          <div className="row">
            <label htmlFor={nominalSelect}>Nominal is</label>
            <select id={nominalSelect} value={nominal?.bodyId ?? ''} disabled={running} onChange={(e) => markNominal(e.target.value)} data-testid="roles.nominal">
              {nominalIds.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          </div>
        )}
      </Step>
      <Step
        n={2}
        name="Actual"
        state={actual ? (twin ? 'warn' : 'done') : nominal ? 'active' : 'todo'}
        status={actual ? `${actual.bodyId} · ${KIND_WORDS[actual.summary.kind]}${actual.summary.lengthUnit ? `, ${actual.summary.lengthUnit}` : units.note ? `, read in ${units.length} (no unit in its file)` : ''}` : 'drop the scan (STL, PLY, OBJ) or point cloud (XYZ, PLY)'}
      >
        {actual && actual.summary.kind !== 'brep' && (!actual.summary.lengthUnit || givenUnit(actual.summary) !== null) && <FileUnit actual={actual} running={running} />}
        {twin && (
          <p className="warning" data-testid="step.same-file" data-code="SAME_FILE">
            {actual!.bodyId} is the same file as the nominal {twin}: compared with itself it reads 0 everywhere. Drop the scan of the part, or remove one of them.
          </p>
        )}
      </Step>
      <Step n={3} name="Align" state={alignState} status={!actual ? 'waiting for the actual' : !nominal ? 'waiting for the nominal' : placed ? placed : (pendingWords ?? 'not aligned: the actual stands where its file put it')}>
        {/* Method and Align first while there is no answer; under an applied one (its figures and Undo stay in view). */}
        {actual && pair && !alignment && <AlignControls pair={pair} running={running} />}
        {alignWarnings.filter((w) => !saidByTheCard(w.code, alignment?.origin !== 'link' && !!alignment?.result.ambiguous)).map((w) => (
          <p key={w.code + w.message} className="warning" data-testid="step.align-warning" data-code={w.code}>
            {warningText(w)}
          </p>
        ))}
        {alignment && (alignment.origin === 'link' ? <LinkPlacementCard placement={alignment} busy={running} /> : <AlignmentCard alignment={alignment} busy={running} />)}
        {actual && pair && alignment && (alignment.status === 'applied' || alignment.status === 'failed') && <AlignControls pair={pair} running={running} />}
      </Step>
      <Step n={4} name="Compare" state={!pair ? 'todo' : heat?.status === 'done' ? 'done' : 'active'} status={heat ? <CompareStatus heat={heat} /> : pair ? 'set the tolerance, then Compare' : 'waiting for both bodies'}>
        {pair && <CompareControls unitText={units.length} aligned={!!placed} running={running} />}
      </Step>
      <Step n={5} name="Report" state={heat?.status === 'done' ? 'active' : 'todo'} status={heat?.status === 'done' ? 'title block, then HTML or PDF' : 'after Compare'}>
        {heat?.status === 'done' && <ReportControls heat={heat} running={running} />}
      </Step>
    </ol>
  );
}

/** The unit a scan file was given at import (`inch (given at import)`), or null. */
function givenUnit(summary: BodySummary): ScanUnit | null {
  const m = /^(\w+) \(given at import\)$/.exec(summary.declaredUnit ?? '');
  return m && (SCAN_UNIT_NAMES as string[]).includes(m[1]!) ? (m[1] as ScanUnit) : null;
}

const UNIT_WORDS: Record<ScanUnit, string> = { mm: 'millimetres', cm: 'centimetres', m: 'metres', inch: 'inches' };

/** A scan file has no unit: its numbers are read in the nominal's unless the user says otherwise (GOM asks at import). */
function FileUnit({ actual, running }: { actual: BodyEntry; running: boolean }) {
  const id = useId();
  const given = givenUnit(actual.summary);
  return (
    <div className="row">
      <label htmlFor={id}>File in</label>
      <select id={id} value={given ?? ''} disabled={running} onChange={(e) => void readInUnit(actual.bodyId, (e.target.value || 'mm') as ScanUnit)} data-testid="actual.unit">
        {given === null && <option value="">the nominal&apos;s unit</option>}
        {SCAN_UNIT_NAMES.map((u) => (
          <option key={u} value={u}>
            {UNIT_WORDS[u]}
          </option>
        ))}
      </select>
    </div>
  );
}

function CompareStatus({ heat }: { heat: HeatState }) {
  const passShare = useStore(inspectStore, (s) => s.passShare);
  if (heat.status === 'running') return <>colouring {heat.fromBodyId}…</>;
  if (heat.status === 'failed') return <>failed</>;
  const v = verdictOf(verdictWithin(heat), passShare);
  return (
    <>
      {heat.fromBodyId} coloured ·{' '}
      <span className={`verdict-chip ${v ?? 'none'}`} data-testid="step.verdict">
        {v ?? (heat.flip && heat.actualWithinError ? 'no verdict' : '…')}
      </span>
    </>
  );
}

/** Tolerance (the user's), the verdict rule, which surface to colour, and Compare (stopping once when the actual is not aligned). */
function CompareControls({ unitText, aligned, running }: { unitText: string; aligned: boolean; running: boolean }) {
  const tolerance = useStore(inspectStore, (s) => s.tolerance);
  const passShare = useStore(inspectStore, (s) => s.passShare);
  const colorOn = useStore(inspectStore, (s) => s.colorOn);
  const heat = useStore(inspectStore, (s) => s.heat);
  const bodies = useScene((s) => s.bodies);
  const [tolText, setTolText] = useState<string | null>(null);
  const [shareText, setShareText] = useState<string | null>(null);
  const [gate, setGate] = useState(false);
  const tolId = useId();
  const shareId = useId();
  const roles = inspectionPairs()[0];
  const pair = comparePairs()[0];
  const nominalOk = roles ? canColorNominal(bodies, roles) : false;
  // Re-read when the nominal's PMI arrives: it may hold the general tolerance (pmiTolerance.ts).
  useStore(gdtStore, (s) => s.pmi);
  const general = nominalGeneralTolerance();
  const sourceWords = {
    default: general === null ? "stated default; the CAD's PMI has no general tolerance" : 'stated default',
    pmi: general ? `from the CAD's PMI: ${general.id}, surface profile ${formatNumber(general.zone)} ${general.reason === 'allOver' ? 'all over' : 'on every face'}` : "from the CAD's PMI",
    user: general ? `yours; the CAD's PMI says ±${formatNumber(general.value)}` : 'yours',
    link: 'from the link or session',
  }[tolerance.source];
  const compare = () => {
    if (!pair) return;
    if (!aligned && !heat && !gate) {
      setGate(true);
      return;
    }
    setGate(false);
    void compareBodies(pair.from, pair.to, heat?.settings);
  };
  return (
    <>
      <div className="row">
        <label htmlFor={tolId}>Tolerance ±</label>
        <input
          id={tolId}
          className="short"
          type="number"
          min={0}
          step="any"
          value={tolText ?? String(tolerance.value)}
          onChange={(e) => {
            setTolText(e.target.value);
            const v = Number(e.target.value);
            if (e.target.value.trim() !== '' && Number.isFinite(v) && v >= 0) setTolerance(v);
          }}
          onBlur={() => setTolText(null)}
          data-testid="step.tolerance"
        />
        <span className="hint" data-testid="step.tolerance-source">
          {unitText} ({sourceWords})
        </span>
      </div>
      <div className="row">
        <label htmlFor={shareId}>PASS when ≥</label>
        <input
          id={shareId}
          className="short"
          type="number"
          min={1}
          max={100}
          step="any"
          value={shareText ?? String(Number((passShare * 100).toPrecision(6)))}
          onChange={(e) => {
            setShareText(e.target.value);
            const v = Number(e.target.value);
            if (e.target.value.trim() !== '' && v > 0 && v <= 100) setPassShare(v / 100);
          }}
          onBlur={() => setShareText(null)}
          data-testid="step.pass-share"
        />
        <span className="hint">% of the actual within ±{formatNumber(tolerance.value)} {unitText}</span>
      </div>
      <div className="row segmented" role="radiogroup" aria-label="Surface to colour">
        <button type="button" role="radio" aria-checked={colorOn === 'actual'} className="button small" disabled={running} onClick={() => void setColorOn('actual')} data-testid="roles.on-actual" title="Colour the actual (the scan): surface comparison on actual">
          On actual
        </button>
        <button
          type="button"
          role="radio"
          aria-checked={colorOn === 'nominal'}
          className="button small"
          disabled={running || !nominalOk}
          onClick={() => void setColorOn('nominal')}
          data-testid="roles.on-nominal"
          title={nominalOk ? 'Colour the nominal (coverage, missing material), same sign: actual minus nominal' : 'A point cloud has no surface to measure the nominal against'}
        >
          On nominal
        </button>
      </div>
      <p className="hint" data-testid="heat.sign-rule">
        Deviation = actual − nominal: <strong>+</strong> material outside the nominal, <strong>−</strong> inside.
      </p>
      {gate && (
        <div className="gate warning" role="alert" data-testid="step.unaligned-warning">
          <p>The actual is not aligned to the nominal: the deviation will include its placement error.</p>
          <div className="row">
            {roles && (
              <button type="button" className="button small primary" disabled={running} onClick={() => (setGate(false), void alignBodies(alignRoles(pair!).moving, alignRoles(pair!).fixed))} data-testid="step.align-first">
                Align first
              </button>
            )}
            <button type="button" className="button small" disabled={running} onClick={compare} data-testid="step.compare-anyway">
              Compare as placed
            </button>
          </div>
        </div>
      )}
      {pair && (
        <button type="button" className={`button ${heat ? 'small' : 'primary compare'}`} disabled={running} onClick={compare} data-testid="deviation.compare" title="measure_deviation, then the heat map, histogram and statistics at your tolerance">
          {heat ? 'Compare again' : `Compare ${roles?.actual} with ${roles?.nominal}`}
        </button>
      )}
    </>
  );
}

const TITLE_FIELDS: { key: keyof TitleBlock; label: string }[] = [
  { key: 'part', label: 'Part' },
  { key: 'revision', label: 'Revision' },
  { key: 'serial', label: 'Serial' },
  { key: 'operator', label: 'Operator' },
  { key: 'date', label: 'Date' },
];

/** The title block, the no-data gate, Download report (HTML) and Print / PDF. */
function ReportControls({ heat, running }: { heat: HeatState; running: boolean }) {
  const titleBlock = useStore(inspectStore, (s) => s.titleBlock);
  const [busy, setBusy] = useState<'html' | 'pdf' | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [acknowledged, setAcknowledged] = useState(false);
  const h = heat.histogram;
  const noDataShare = h ? h.noDataSamples / Math.max(1, h.samples + h.noDataSamples) : 0;
  const blocked = noDataShare > NO_DATA_WARNING_SHARE && !acknowledged;
  const go = (kind: 'html' | 'pdf') => {
    setBusy(kind);
    setError(null);
    void (kind === 'html' ? downloadReport() : printReport()).then((e) => {
      setBusy(null);
      setError(e);
    });
  };
  return (
    <>
      <div className="title-block">
        {TITLE_FIELDS.map((f) => (
          <label key={f.key}>
            <span>{f.label}</span>
            <input type={f.key === 'date' ? 'date' : 'text'} value={titleBlock[f.key] ?? ''} onChange={(e) => setTitleField(f.key, e.target.value)} data-testid={`report.${f.key}`} />
          </label>
        ))}
      </div>
      {noDataShare > NO_DATA_WARNING_SHARE && (
        <div className="gate warning" role="alert" data-testid="step.no-data-warning">
          <p>
            {(noDataShare * 100).toFixed(1)} % of {heat.fromBodyId} has no counterpart on {heat.toBodyId} ({formatCount(h!.noDataSamples)} samples): they are in no figure.
          </p>
          {!acknowledged && (
            <button type="button" className="button small" onClick={() => setAcknowledged(true)} data-testid="step.no-data-accept">
              Report anyway
            </button>
          )}
        </div>
      )}
      <div className="row">
        <button type="button" className="button small primary" disabled={running || !!busy || blocked} onClick={() => go('html')} data-testid="deviation.download-report" title="inspection_report: one self-contained HTML file that opens offline">
          {busy === 'html' ? 'Writing report…' : 'Download report'}
        </button>
        <button type="button" className="button small" disabled={running || !!busy || blocked} onClick={() => go('pdf')} data-testid="deviation.print-report" title="The same report, printed by the browser (Save as PDF)">
          {busy === 'pdf' ? 'Writing report…' : 'Print / PDF'}
        </button>
      </div>
      {error && (
        <p className="error" role="alert" data-testid="deviation.report-error">
          <code>{error.code}</code> {error.message}
        </p>
      )}
    </>
  );
}
