import { describe, expect, it } from 'vitest';
import { keptInFileUnit, StepText } from './stepText';
import { rangeLimits } from './pmi';

/**
 * The dimensions' length unit is voted among the measures the dimensions hold. NIST FTC 6 (geometry
 * in mm, PMI in inches) carries 89 validation-property measures in mm and 24 dimension measures in
 * inches: voting over every measure item read 0.562 in as 0.562 mm.
 */
const step = (extra: string) =>
  new TextEncoder().encode(`ISO-10303-21;
HEADER;
ENDSEC;
DATA;
#8=(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(.MILLI.,.METRE.));
#59=LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(25.4),#8);
#60=(CONVERSION_BASED_UNIT('INCH',#59)LENGTH_UNIT()NAMED_UNIT(#61));
#1=(LENGTH_MEASURE_WITH_UNIT()MEASURE_REPRESENTATION_ITEM()MEASURE_WITH_UNIT(LENGTH_MEASURE(180.46),#8)REPRESENTATION_ITEM('centroid x'));
#2=(LENGTH_MEASURE_WITH_UNIT()MEASURE_REPRESENTATION_ITEM()MEASURE_WITH_UNIT(LENGTH_MEASURE(61.8),#8)REPRESENTATION_ITEM('centroid y'));
#3=(LENGTH_MEASURE_WITH_UNIT()MEASURE_REPRESENTATION_ITEM()MEASURE_WITH_UNIT(LENGTH_MEASURE(328.4),#8)REPRESENTATION_ITEM('centroid z'));
#10=(LENGTH_MEASURE_WITH_UNIT()MEASURE_REPRESENTATION_ITEM()MEASURE_WITH_UNIT(POSITIVE_LENGTH_MEASURE(0.562),#60)REPRESENTATION_ITEM('nominal value'));
#11=SHAPE_DIMENSION_REPRESENTATION('',(#10),#99);
#12=(LENGTH_MEASURE_WITH_UNIT()MEASURE_REPRESENTATION_ITEM()MEASURE_WITH_UNIT(POSITIVE_LENGTH_MEASURE(0.25),#60)REPRESENTATION_ITEM('nominal value'));
#13=DESCRIPTIVE_REPRESENTATION_ITEM('dimensional note','controlled radius');
#14=SHAPE_DIMENSION_REPRESENTATION('',(#12,#13),#99);
${extra}
ENDSEC;
END-ISO-10303-21;
`);

describe('StepText.dimensionUnitMm', () => {
  it('votes among the measures the SHAPE_DIMENSION_REPRESENTATIONs hold, not the validation properties', () => {
    expect(new StepText(step('')).dimensionUnitMm()).toBe(25.4);
  });

  it('without any dimension representation, the majority of all length measure items', () => {
    const text = new TextDecoder().decode(step('')).replace(/#1[14]=SHAPE_DIMENSION_REPRESENTATION[^;]*;/g, '');
    expect(new StepText(new TextEncoder().encode(text)).dimensionUnitMm()).toBe(1);
  });
});

/** NIST CTC 2 (nist_ctc_02_asme1_ap242-e2.stp) defines A, B and C by datum targets; these entities are copied from it. */
const ctc2 = new TextEncoder().encode(`ISO-10303-21;
HEADER;
ENDSEC;
DATA;
#102=PLACED_DATUM_TARGET_FEATURE('Datum Target.1','point',#21867,.T.,'1');
#103=PLACED_DATUM_TARGET_FEATURE('Datum Target.2','point',#21867,.T.,'2');
#104=PLACED_DATUM_TARGET_FEATURE('Datum Target.3','point',#21867,.T.,'3');
#105=PLACED_DATUM_TARGET_FEATURE('Datum Target.8','point',#21867,.T.,'1');
#110=PLACED_DATUM_TARGET_FEATURE('Datum Target.10','circle',#21867,.T.,'1');
#125=DATUM('',$,#21867,.F.,'A');
#127=DATUM('',$,#21867,.F.,'C');
#128=DATUM('',$,#21867,.F.,'D');
#134=DATUM('',$,#21867,.F.,'K');
#426=SHAPE_ASPECT_RELATIONSHIP('',$,#102,#125);
#427=SHAPE_ASPECT_RELATIONSHIP('',$,#103,#125);
#428=SHAPE_ASPECT_RELATIONSHIP('',$,#104,#125);
#429=SHAPE_ASPECT_RELATIONSHIP('',$,#105,#127);
#462=SHAPE_ASPECT_RELATIONSHIP('',$,#110,#134);
ENDSEC;
END-ISO-10303-21;
`);

describe('StepText.datumTargets', () => {
  it("lists the datum targets related to a datum, with their numbers and kinds; none for a datum on a feature", () => {
    const t = new StepText(ctc2);
    expect(t.datumTargets('A')).toEqual([{ id: 'A1', kind: 'point' }, { id: 'A2', kind: 'point' }, { id: 'A3', kind: 'point' }]);
    expect(t.datumTargets('C')).toEqual([{ id: 'C1', kind: 'point' }]);
    expect(t.datumTargets('K')).toEqual([{ id: 'K1', kind: 'circle' }]);
    expect(t.datumTargets('D')).toEqual([]);
    expect(t.datumTargets('Z')).toEqual([]);
  });
});

describe('a dimension value the kernel left in the file\'s unit', () => {
  // NIST CTC 5 (inches): its nominal values are also QUALIFIED_REPRESENTATION_ITEMs (decimal places
  // given) and came from the kernel as written (10 for a 10 in bore); FTC 8's, unqualified, came
  // multiplied by 25.4 (0.213 in as 5.4102).
  const text = new StepText(
    step(`#201=SHAPE_DIMENSION_REPRESENTATION('',(#202,#203),#99);
#202=(LENGTH_MEASURE_WITH_UNIT()MEASURE_REPRESENTATION_ITEM()MEASURE_WITH_UNIT(POSITIVE_LENGTH_MEASURE(10.),#8)QUALIFIED_REPRESENTATION_ITEM((#7))REPRESENTATION_ITEM('nominal value'));
#203=(LENGTH_MEASURE_WITH_UNIT()MEASURE_REPRESENTATION_ITEM()MEASURE_WITH_UNIT(POSITIVE_LENGTH_MEASURE(0.213),#8)REPRESENTATION_ITEM('nominal value'));
#204=(LENGTH_MEASURE_WITH_UNIT()MEASURE_REPRESENTATION_ITEM()MEASURE_WITH_UNIT(LENGTH_MEASURE(7.),#8)QUALIFIED_REPRESENTATION_ITEM((#7))REPRESENTATION_ITEM('not a dimension'));
`),
  );
  const values = text.dimensionValues();
  it('reads the dimension items, qualified or not, and nothing else', () => {
    // The fixture's own dimensions (0.25 and 0.562 in) and the two added; not the centroids nor #204.
    expect([...values].sort((a, b) => a.value - b.value)).toEqual([
      { value: 0.213, qualified: false },
      { value: 0.25, qualified: false },
      { value: 0.562, qualified: false },
      { value: 10, qualified: true },
    ]);
  });
  it('a raw value equal to a qualified item is in the file\'s unit; one equal to an item times the unit, or any value in a millimetre file, is not', () => {
    expect(keptInFileUnit(10, values, 25.4)).toBe(true);
    expect(keptInFileUnit(0.213 * 25.4, values, 25.4)).toBe(false);
    expect(keptInFileUnit(0.213, values, 25.4)).toBe(false);
    expect(keptInFileUnit(10, values, 1)).toBe(false);
    expect(keptInFileUnit(7, values, 25.4)).toBe(false);
  });
});

describe('StepText.compositeSegments', () => {
  it("reads each composite frame's name and its two segments' magnitudes (NIST FTC 10's form, a magnitude in inches)", () => {
    const s = new StepText(
      step(`#20=LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(1.2),#8);
#21=LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(0.008),#60);
#22=( GEOMETRIC_TOLERANCE('Position surfacic profile.4','',#20,#30) GEOMETRIC_TOLERANCE_WITH_DATUM_REFERENCE((#31)) SURFACE_PROFILE_TOLERANCE() );
#23=( GEOMETRIC_TOLERANCE('Position surfacic profile.4','',#21,#30) GEOMETRIC_TOLERANCE_WITH_DATUM_REFERENCE((#32)) SURFACE_PROFILE_TOLERANCE() );
#24=GEOMETRIC_TOLERANCE_RELATIONSHIP('composite','',#22,#23);
#25=GEOMETRIC_TOLERANCE_RELATIONSHIP('refinement','',#22,#23);`),
    );
    const [c, ...rest] = s.compositeSegments(1);
    expect(rest).toEqual([]);
    expect(c!.name).toBe('Position surfacic profile.4');
    expect(c!.upper).toBeCloseTo(1.2, 12);
    expect(c!.lower).toBeCloseTo(0.008 * 25.4, 12);
  });
});

/**
 * Geometric tolerances as NIST files write them, the entities copied from them: FTC 10 (AP242 ed. 2,
 * complex instances, DATUM_SYSTEM, TOLERANCE_ZONE) and CTC 5 (ed. 1, simple entities).
 */
const ftc10 = new TextEncoder().encode(`ISO-10303-21;
HEADER;
ENDSEC;
DATA;
#3=(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(.MILLI.,.METRE.));
#12=PRODUCT_DEFINITION_SHAPE('','',#11);
#18149=DATUM('',$,#12,.F.,'B');
#18201=DATUM('',$,#12,.F.,'D');
#18232=DATUM('',$,#12,.F.,'E');
#19079=SHAPE_ASPECT('Position surfacic profile.3',$,#12,.T.);
#19099=LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(15.0),#3);
#19100=LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(0.2),#3);
#19101= ( GEOMETRIC_TOLERANCE('Straightness.1','',#19100,#19079) GEOMETRIC_TOLERANCE_WITH_DEFINED_UNIT(#19099) STRAIGHTNESS_TOLERANCE() );
#19603=COMPOSITE_GROUP_SHAPE_ASPECT('Position.16','pattern of features',#12,.T.);
#19613=DATUM_REFERENCE_COMPARTMENT('',$,#12,.F.,#18201,$);
#19614=DATUM_REFERENCE_COMPARTMENT('',$,#12,.F.,#18232,$);
#19615=DATUM_REFERENCE_COMPARTMENT('',$,#12,.F.,#18149,$);
#19618=LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(0.8),#3);
#19619=DATUM_SYSTEM('',$,#12,.F.,(#19613,#19614,#19615));
#19621= ( GEOMETRIC_TOLERANCE('Position.16','',#19618,#19603) GEOMETRIC_TOLERANCE_WITH_DATUM_REFERENCE((#19619)) GEOMETRIC_TOLERANCE_WITH_MODIFIERS((.MAXIMUM_MATERIAL_REQUIREMENT.)) POSITION_TOLERANCE() );
#19622=TOLERANCE_ZONE_FORM('cylindrical or circular');
#19623=TOLERANCE_ZONE('',$,#12,.F.,(#19621),#19622);
#13402=(CONVERSION_BASED_UNIT('INCH',#9)LENGTH_UNIT()NAMED_UNIT(#10));
#984=LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(0.005),#13402);
#998=SHAPE_ASPECT('','',#1176,.T.);
#957=STRAIGHTNESS_TOLERANCE('','straightness tolerance',#984,#998);
ENDSEC;
END-ISO-10303-21;
`);

describe('StepText.geometricTolerances', () => {
  const list = new StepText(ftc10).geometricTolerances(1);
  it('reads each kind, magnitude, per-unit basis, datum order, modifiers and zone form, simple or complex', () => {
    expect(list.map((t) => [t.entity, t.name, t.kind, t.aspect, t.aspectType, t.perLength, t.datums.join('|'), t.modifiers.join(','), t.zone])).toEqual([
      [19101, 'Straightness.1', 'straightness', 19079, 'SHAPE_ASPECT', 15, '', '', 'width'],
      [19621, 'Position.16', 'position', 19603, 'COMPOSITE_GROUP_SHAPE_ASPECT', null, 'D|E|B', 'maximumMaterial', 'diameter'],
      [957, '', 'straightness', 998, 'SHAPE_ASPECT', null, '', '', 'width'],
    ]);
    expect(list.map((t) => t.magnitude)).toEqual([0.2, 0.8, 0.005 * 25.4]);
    expect(list.every((t) => t.perArea === null)).toBe(true);
  });
});

describe('StepText.datumTargets', () => {
  // FTC 6's form: a circular-curve target G1 placed in a millimetre context, its diameter named in
  // inches (the number is the millimetres'); a line target with its length in the same unit.
  const targets = step(`#20=DATUM('',$,#30,.F.,'G');
#21=PLACED_DATUM_TARGET_FEATURE('Datum Target.5','circular curve',#30,.T.,'1');
#22=SHAPE_ASPECT_RELATIONSHIP('',$,#21,#20);
#23=PROPERTY_DEFINITION('',$,#21);
#24=SHAPE_DEFINITION_REPRESENTATION(#23,#25);
#25=SHAPE_REPRESENTATION_WITH_PARAMETERS('Datum Target.5',(#26,#27),#28);
#26=(LENGTH_MEASURE_WITH_UNIT()MEASURE_REPRESENTATION_ITEM()MEASURE_WITH_UNIT(LENGTH_MEASURE(25.4),#60)REPRESENTATION_ITEM('target diameter'));
#27=AXIS2_PLACEMENT_3D('orientation',#31,#32,#33);
#28=(GEOMETRIC_REPRESENTATION_CONTEXT(3)GLOBAL_UNIT_ASSIGNED_CONTEXT((#8))REPRESENTATION_CONTEXT('',''));
#31=CARTESIAN_POINT('',(76.2,66.04,-158.75));
#32=DIRECTION('',(0.0,1.0,0.0));
#33=DIRECTION('',(-1.0,0.0,0.0));
#40=DATUM('',$,#30,.F.,'J');
#41=PLACED_DATUM_TARGET_FEATURE('Datum Target.9','line',#30,.T.,'1');
#42=SHAPE_ASPECT_RELATIONSHIP('',$,#41,#40);
#43=PROPERTY_DEFINITION('',$,#41);
#44=SHAPE_DEFINITION_REPRESENTATION(#43,#45);
#45=SHAPE_REPRESENTATION_WITH_PARAMETERS('Datum Target.9',(#46,#47),#48);
#46=(LENGTH_MEASURE_WITH_UNIT()MEASURE_REPRESENTATION_ITEM()MEASURE_WITH_UNIT(LENGTH_MEASURE(1.25),#60)REPRESENTATION_ITEM('target length'));
#47=AXIS2_PLACEMENT_3D('orientation',#31,#32,#33);
#48=(GEOMETRIC_REPRESENTATION_CONTEXT(3)GLOBAL_UNIT_ASSIGNED_CONTEXT((#60))REPRESENTATION_CONTEXT('',''));
#50=DATUM('',$,#30,.F.,'K');
#51=PLACED_DATUM_TARGET_FEATURE('Datum Target.1','point',#30,.T.,'1');
#52=SHAPE_ASPECT_RELATIONSHIP('',$,#51,#50);`);

  it("reads each target's placement, its sizes in mm and the unit of its coordinates", () => {
    const t = new StepText(targets);
    expect(t.datumTargets('G')).toEqual([{ id: 'G1', kind: 'circular curve', origin: [76.2, 66.04, -158.75], normal: [0, 1, 0], direction: [-1, 0, 0], diameter: 25.4 * 25.4, sizeUnitMm: 25.4, contextUnitMm: 1 }]);
    // An inch context: coordinates in inches, the length named in inches.
    expect(t.datumTargets('J')).toEqual([{ id: 'J1', kind: 'line', origin: [76.2, 66.04, -158.75], normal: [0, 1, 0], direction: [-1, 0, 0], length: 1.25 * 25.4, sizeUnitMm: 25.4, contextUnitMm: 25.4 }]);
    // No placement in the file: the id and kind alone.
    expect(t.datumTargets('K')).toEqual([{ id: 'K1', kind: 'point' }]);
  });
});

describe('limit dimensions', () => {
  // NIST FTC 7's radius: limits .012 and .022 in with a nominal value of .017, each a qualified
  // item (its decimal places given), which this kernel build leaves in inches and reads as the
  // range [.017, .022]: nominal 0.0195 "mm" +-0.0025 before, where the drawing says R .017 +-.005 in.
  const ftc7 = `#15155=VALUE_FORMAT_TYPE_QUALIFIER('NR2 1.3');
#16246=( LENGTH_MEASURE_WITH_UNIT() MEASURE_REPRESENTATION_ITEM() MEASURE_WITH_UNIT(POSITIVE_LENGTH_MEASURE(0.012),#60) QUALIFIED_REPRESENTATION_ITEM((#15155)) REPRESENTATION_ITEM('lower limit') );
#16247=( LENGTH_MEASURE_WITH_UNIT() MEASURE_REPRESENTATION_ITEM() MEASURE_WITH_UNIT(POSITIVE_LENGTH_MEASURE(0.017),#60) QUALIFIED_REPRESENTATION_ITEM((#15155)) REPRESENTATION_ITEM('nominal value') );
#16248=( LENGTH_MEASURE_WITH_UNIT() MEASURE_REPRESENTATION_ITEM() MEASURE_WITH_UNIT(POSITIVE_LENGTH_MEASURE(0.022),#60) QUALIFIED_REPRESENTATION_ITEM((#15155)) REPRESENTATION_ITEM('upper limit') );
#16249=SHAPE_DIMENSION_REPRESENTATION('',(#16246,#16247,#16248),#8);`;

  it("are listed with the file's own lower limit, nominal and upper limit", () => {
    expect(new StepText(step(ftc7)).limitDimensions()).toEqual([{ lower: 0.012, upper: 0.022, nominal: 0.017 }]);
    expect(new StepText(step('')).limitDimensions()).toEqual([]);
  });

  it("give the kernel's range [nominal, upper] the file's lower limit, in millimetres", () => {
    const t = new StepText(step(ftc7));
    const r = rangeLimits(0.017, 0.022, t.limitDimensions(), t.dimensionValues(), 25.4, 25.4);
    expect(r.nominal).toBeCloseTo(0.4318, 12);
    expect(r.upper).toBeCloseTo(0.127, 12);
    expect(r.lower).toBeCloseTo(-0.127, 12);
    // A range the file holds without a nominal value, given by the kernel in millimetres: its middle.
    const plain = rangeLimits(0.3048, 0.5588, [{ lower: 0.012, upper: 0.022, nominal: null }], [], 25.4, 25.4);
    expect(plain.nominal).toBeCloseTo(0.4318, 12);
    expect(plain.upper).toBeCloseTo(0.127, 12);
  });
});
