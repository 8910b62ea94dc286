/**
 * A pure function of one string whose answers are kept: design asks for the same names and descriptions again and
 * again (a 22,000-operation description repeats "Select properties to be returned" on thousands of operations), and a
 * watch cycle after a brief edit asks for all of them anew. Past `kept` answers the store starts over, which bounds its
 * memory on any document.
 */
export function memoized<T>(fn: (text: string) => T, kept = 100_000): (text: string) => T {
  const answers = new Map<string, T>();
  return (text) => {
    let answer = answers.get(text);
    if (answer === undefined && !answers.has(text)) {
      if (answers.size >= kept) answers.clear();
      answers.set(text, (answer = fn(text)));
    }
    return answer as T;
  };
}
