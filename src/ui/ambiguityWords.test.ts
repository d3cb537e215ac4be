import { describe, expect, it } from 'vitest';
import type { AlignResult } from '../engine';
import { ambiguityWords } from './AlignmentCard';

const poses = (angles: number[]) => ({ equivalentPoses: angles.map((a) => ({ rotationAngleDegrees: a })) }) as unknown as Pick<AlignResult, 'equivalentPoses'>;

describe("the alignment card's ambiguity in words", () => {
  it('lists every other pose of a part with a few', () => {
    expect(ambiguityWords(poses([0, 90.2, 180, 269.6]))).toContain('in 4 poses');
    expect(ambiguityWords(poses([0, 90.2, 180, 269.6]))).toContain('; the others turn it by 90°, 180°, 270°.');
  });

  it('a turned ring with 24 poses: six angles, the largest and the count, not 23 angles', () => {
    // NIST FTC 11 against its scan turned by 4° about z: 24 equivalent poses, 13° to 178°.
    const angles = [0, 13, 17, 28, 32, 43, 47, 58, 62, 73, 77, 88, 92, 103, 107, 118, 122, 133, 137, 148, 152, 163, 167, 178];
    const w = ambiguityWords(poses(angles));
    expect(w).toContain('in 24 poses');
    expect(w).toContain('; the others turn it by 13°, 17°, 28°, 32°, 43°, 47° … up to 178° (23 poses).');
  });

  it('says nothing of others when there are none', () => {
    expect(ambiguityWords(poses([0]))).toContain('The one nearest where the scan stands was taken. If a feature');
  });
});
