# Reference values for lib/bench/stats/tradeoffs.test.ts (issue #16 §4), computed independently of the
# TypeScript: numpy 2.4.6 / scipy 1.17.1. Run: python3 docs/stats-references/tradeoffs.py
import numpy as np
from scipy import stats
cand_lat=[820,910,1300,760,990,1500,870,2100,940,1010,880,1230]
base_lat=[700,720,900,650,800,1100,690,1300,760,800,710,950]
cand_cost=[0.0021,0.0025,0.0019,0.0030,0.0022,0.0027,0.0024,0.0031,0.0020,0.0023,0.0026,0.0028]
base_cost=[0.0015,0.0016,0.0014,0.0020,0.0017,0.0018,0.0016,0.0021,0.0015,0.0016,0.0017,0.0019]
d=np.array(cand_cost)-np.array(base_cost)
n=len(d)
m=d.mean(); se=d.std(ddof=1)/np.sqrt(n)
print("cost mean", repr(m), "ci", repr(m-stats.t.ppf(0.975,n-1)*se), repr(m+stats.t.ppf(0.975,n-1)*se))
ci=stats.ttest_rel(cand_cost,base_cost).confidence_interval(0.95)
print("scipy ttest_rel ci", repr(ci.low), repr(ci.high))
def mulberry32(seed):
    a=seed & 0xffffffff
    def imul(x,y): return (x*y) & 0xffffffff
    while True:
        a=(a+0x6d2b79f5)&0xffffffff
        t=a
        t=imul(t ^ (t>>15), t|1)
        t ^= (t + imul(t ^ (t>>7), t|61)) & 0xffffffff
        t &= 0xffffffff
        yield ((t ^ (t>>14)) & 0xffffffff)/4294967296
def boot(a,b,qs,B,seed):
    a=np.array(a,float); b=np.array(b,float); n=len(a)
    r=mulberry32(seed)
    diffs=[[] for _ in qs]
    for _ in range(B):
        idx=np.array([int(next(r)*n) for _ in range(n)])
        for i,q in enumerate(qs):
            diffs[i].append(np.percentile(a[idx],q*100,method='inverted_cdf')-np.percentile(b[idx],q*100,method='inverted_cdf'))
    return [(np.percentile(d,2.5,method='inverted_cdf'),np.percentile(d,97.5,method='inverted_cdf')) for d in diffs]
print("p50", np.percentile(cand_lat,50,method='inverted_cdf'), np.percentile(base_lat,50,method='inverted_cdf'))
print("p95", np.percentile(cand_lat,95,method='inverted_cdf'), np.percentile(base_lat,95,method='inverted_cdf'))
print("boot", boot(cand_lat,base_lat,[0.5,0.95],1000,20161))
r=mulberry32(1); print("mulberry32(1) first 3", [next(r) for _ in range(3)])
