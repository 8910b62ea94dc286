/** ln(n!) by summation: counts here are attempts, so small. */
function logFactorial(n: number): number {
  let sum = 0;
  for (let i = 2; i <= n; i++) sum += Math.log(i);
  return sum;
}

/**
 * Fisher's exact test, two-sided, for passes out of attempts of A against B: exact at any sample size, which suits
 * the handful of repetitions an agent evaluation can afford. The p-value sums every table with the same margins that
 * is no more likely than the observed one.
 */
export function fisherExact(aPass: number, aTotal: number, bPass: number, bTotal: number): number {
  const passes = aPass + bPass;
  const total = aTotal + bTotal;
  const logP = (x: number) =>
    logFactorial(passes) +
    logFactorial(total - passes) +
    logFactorial(aTotal) +
    logFactorial(bTotal) -
    logFactorial(x) -
    logFactorial(aTotal - x) -
    logFactorial(passes - x) -
    logFactorial(bTotal - passes + x) -
    logFactorial(total);
  const observed = logP(aPass);
  let p = 0;
  for (let x = Math.max(0, passes - bTotal); x <= Math.min(aTotal, passes); x++) {
    const lp = logP(x);
    if (lp <= observed + 1e-9) p += Math.exp(lp);
  }
  return Math.min(1, p);
}
