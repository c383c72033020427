import { decodeEnergy, encodeEnergy, ENERGY_FLOOR_DB, ENERGY_HEADER_BYTES, energyByte, energyDb } from './energy-format';

describe('the stored energy series', () => {
  it('round-trips duration, frame rate and levels behind a 20-byte header', () => {
    const levels = Uint8Array.from([0, 1, 95, 200, 255]);
    const bytes = encodeEnergy({ durationSec: 0.05, framesPerSecond: 100, levels });
    expect(bytes.length).toBe(ENERGY_HEADER_BYTES + 5);
    expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe('WCEN');
    const back = decodeEnergy(bytes);
    expect(back).toEqual({ durationSec: 0.05, framesPerSecond: 100, levels });
  });

  it('refuses what is not one', () => {
    expect(() => decodeEnergy(new Uint8Array(10))).toThrow('not a stored energy series');
    const bytes = encodeEnergy({ durationSec: 1, framesPerSecond: 100, levels: new Uint8Array(1) });
    bytes[4] = 2;
    expect(() => decodeEnergy(bytes)).toThrow('unknown energy format version 2');
  });

  it('stores levels in half decibels from -127.5 dBFS (quieter, and digital silence, is 0) to 0 dBFS', () => {
    expect(energyByte(-Infinity)).toBe(0);
    expect(energyByte(-200)).toBe(0);
    expect(energyByte(ENERGY_FLOOR_DB)).toBe(0);
    expect(energyByte(-80)).toBe(95);
    expect(energyByte(-20.2)).toBe(215);
    expect(energyByte(0)).toBe(255);
    expect(energyByte(6)).toBe(255);
    expect(energyDb(95)).toBe(-80);
    expect(energyDb(255)).toBe(0);
  });
});
