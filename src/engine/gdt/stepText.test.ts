import { describe, expect, it } from 'vitest';
import { StepText } from './stepText';

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
