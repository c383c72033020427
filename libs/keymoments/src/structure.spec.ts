import { findKeyMoments } from './moments';
import { tidyTitle } from './moment-text';
import { announcementOf, closingOf, contrastOf, logisticsOf, parallelOf } from './structure';
import { timedTalk } from './talks.spec-helpers';

describe('what a sentence says about the talk around it', () => {
  it('announcements of a list, with the count when said, and of a key line', () => {
    expect(announcementOf('Joining a class this term is easy, and there are three steps to follow.')).toEqual({ kind: 'list', phrase: 'three steps', count: 3 });
    expect(announcementOf('We look forward to a world founded upon four essential human freedoms.')).toMatchObject({ kind: 'list', count: 4 });
    expect(announcementOf("Here's how you do it.")).toMatchObject({ kind: 'list', count: null });
    expect(announcementOf('If there is one thing to remember from today, it is this.')).toMatchObject({ kind: 'key' });
    expect(announcementOf('Before we finish, here is the one thing to remember from this quarter.')).toMatchObject({ kind: 'key' });
    expect(announcementOf('The main hall has a new floor.')).toBeNull();
  });

  it('greetings and sign-offs', () => {
    for (const s of ['Thank you for listening, and see you at the centre.', 'Hello, and welcome to the community centre update.', 'That is everything for this term.', 'Thanks so much for watching.']) expect(closingOf(s)).not.toBeNull();
    expect(closingOf('Freedom means the supremacy of human rights everywhere.')).toBeNull();
  });

  it('notices of logistics: a place with a time, a count or a change', () => {
    expect(logisticsOf('The bike storage room now has twelve more spaces.')).toBe('storage');
    expect(logisticsOf('The side door near the garden is now locked after six in the evening.')).toBe('door');
    expect(logisticsOf('Please return the key to the desk when you leave.')).toBe('key');
    expect(logisticsOf('The pottery class has moved from Tuesday to Thursday evening.')).toBeNull(); // no place named: the time alone is not enough
    expect(logisticsOf('This nation has placed its destiny in the hands and heads and hearts of its millions.')).toBeNull();
    expect(logisticsOf('Government of the people, by the people, for the people, shall not perish from the earth.')).toBeNull();
  });

  it('contrasts and parallel clauses', () => {
    expect(contrastOf('A plan without a deadline is just a wish.')).not.toBeNull();
    expect(contrastOf('It is not the critic who counts, but the man in the arena.')).not.toBeNull();
    expect(contrastOf('Ask not what your country can do for you.')).toBe('ask not');
    expect(contrastOf('The only thing we have to fear is fear itself.')).not.toBeNull();
    expect(contrastOf('The cafe will close for two weeks in May.')).toBeNull();
    expect(parallelOf('With malice toward none , with charity for all , with firmness in the right')).toBe('with');
    expect(parallelOf('Fondly do we hope , fervently do we pray')).toBeNull();
  });

  it('titles are clean phrases', () => {
    expect(tidyTitle('and, happy editing!')).toBe('And, happy editing!');
    expect(tidyTitle(' “Small kindnesses build strong neighbourhoods.” ')).toBe('Small kindnesses build strong neighbourhoods');
    expect(tidyTitle('Open the booking page —')).toBe('Open the booking page');
  });
});

/** Flat notices with a three-step list (announced) and an aphorism (introduced), as a club reads them out. */
const NOTICES = [
  'Hello, and welcome to the community centre update for the spring term.',
  'The main hall has a new floor, and it will be open again from Monday.',
  'The side door near the garden is now locked after six in the evening.',
  'The noticeboard by the entrance has moved to the corridor next to the lift.',
  'The bike storage room now has twelve more spaces.',
  'The swimming group meets at the pool on Station Road from the second week of April.',
  'Joining a class this term is easy, and there are three steps to follow.',
  'First, fill in the short form at the front desk or on the website.',
  'Second, pay the term fee by card or in cash at reception.',
  'Third, collect your member card and bring it to your first session.',
  'The cafe will close for two weeks in May while the kitchen is painted.',
  'The table tennis tables can be booked at the front desk.',
  'Please return the key to the desk when you leave.',
  'The lost and found shelf is cleared at the end of every month.',
  'If there is one thing to remember from today, it is this.',
  'A plan without a deadline is just a wish.',
  'Most of the volunteers who run these classes started by helping a neighbour carry a box.',
  'The lights in the car park will be replaced next month.',
  'The bus stop outside the centre will move a little further up the road in June.',
  'The summer fair is planned for the middle of July.',
  'Thank you for listening, and see you at the centre.',
];

describe('a talk of flat notices with two planted moments', () => {
  const talk = timedTalk(NOTICES);
  const moments = findKeyMoments({ words: talk.words });
  const sentenceAt = (time: number) => talk.bounds.findIndex((b) => Math.abs(b.start - time) < 1e-3);

  it('ranks the announced list and the introduced line first', () => {
    const [a, b] = moments;
    const byCategory = Object.fromEntries([a, b].map((m) => [m!.category, m!]));
    expect(Object.keys(byCategory).sort()).toEqual(['Actionable', 'Quotable']);
    // the list starts at its announcement and ends where the list ends
    expect(sentenceAt(byCategory['Actionable']!.startTime)).toBe(6);
    expect(talk.bounds.findIndex((x) => Math.abs(x.end - byCategory['Actionable']!.endTime) < 1e-3)).toBe(9);
    // the line is told with what introduces it
    expect(sentenceAt(byCategory['Quotable']!.startTime)).toBe(14);
    expect(moments.slice(2).every((m) => m.engagement < b!.engagement)).toBe(true);
  });

  it('explains each with words from the talk, and titles them cleanly', () => {
    const list = moments.find((m) => m.category === 'Actionable')!;
    expect(list.reasons[0]).toBe('Announces three steps and lists them: ‘First’, ‘Second’, ‘Third’ (“Joining a class this term is easy, and there are three steps to follow”)');
    expect(list.title).toBe('Joining a class this term is easy');
    const line = moments.find((m) => m.category === 'Quotable')!;
    expect(line.reasons[0]).toMatch(/^Introduced as the thing to remember \(‘.*one thing.*’\): “A plan without a deadline is just a wish\.”$/);
    expect(line.title).toBe('A plan without a deadline is just a wish');
  });

  it('never makes a notice or a sign-off a moment of its own kind', () => {
    const lowest = Math.min(...moments.slice(0, 2).map((m) => m.engagement));
    for (const m of moments.slice(2)) {
      expect(m.engagement).toBeLessThan(lowest / 2);
      expect(m.title).not.toMatch(/bike storage|Thank you/);
    }
    expect(moments.filter((m) => m.category === 'Actionable')).toHaveLength(1);
  });
});
