typedef unsigned long long cuuint64_t;typedef unsigned cuuint32_t;typedef int CUresult;
typedef struct{_Alignas(64) unsigned long long o[16];}CUtensorMap;int cuInit(unsigned);int cuDeviceGet(int*,int);
int cuCtxCreate_v2(void**,unsigned,int);int cuDriverGetVersion(int*);int cuTensorMapEncodeTiled(CUtensorMap*,int,cuuint32_t,void*,
const cuuint64_t*,const cuuint64_t*,const cuuint32_t*,const cuuint32_t*,int,int,int,int);
#include <stdio.h>
#include <stdlib.h>
typedef unsigned long long U;U s=88172645463325252ULL;
U r(){s^=s<<13;s^=s>>7;s^=s<<17;return s;}
U p(U n){return r()%n;}
int main(int c,char**v){int dv,i,k;cuInit(0);int d;cuDeviceGet(&d,0);void*x;cuCtxCreate_v2(&x,0,d);
cuDriverGetVersion(&dv);printf("driver %d\n",dv);int N=atoi(v[1]);s+=atoi(v[2]);int V=c>3;
static CUtensorMap m;int es[]={1,2,4,4,8,8,2,4,8,2,4,4,4};
for(k=0;k<N;k++){int t=p(13),R=p(20)?1+p(5):p(7),il=p(5)<3?0:1+p(2),sw=V?p(4):p(7),l2=p(4),of=p(2);
cuuint64_t g[8],st[8];cuuint32_t b[8],e[8];U z=es[t],q,pv=z,a=256*(1+p(100))+(p(3)?0:16*p(4)+(p(2)?0:p(16)));
for(i=0;i<R;i++){q=p(10);if(V&&q<2)q=3;g[i]=q==0?0:q==1?(1ULL<<32)+p(2):q==2?1+p(1<<20):1+p(300);
if(i){q=p(6);if(V&&q<2)q=2;st[i]=q==0?z*(1+p(5000)):q==1?(1ULL<<40)-16+16*p(3):pv*g[i-1]+(p(2)?0:z*p(8));
if(p(2))st[i]=(st[i]+31)/32*32;if(st[i]>(1ULL<<50))st[i]=1ULL<<50;pv=st[i];}
q=p(8);if(V&&q<2)q=3;b[i]=q==0?0:q==1?257+p(300):q<5?(i?1<<p(9):((16ULL<<p(4))/z)):1+p(256);
q=p(12);if(V&&q<2)q=3;e[i]=q==0?0:q==1?9:q<7?1:1+p(8);}
CUresult res=cuTensorMapEncodeTiled(&m,t,R,(void*)a,g,st+1,b,e,
il,sw,l2,of);
printf("%d %d %d %d %d %d %llu :",t,R,il,sw,l2,of,a);
for(i=0;i<R;i++)printf(" %llu",(U)g[i]);printf(" :");for(i=1;i<R;i++)printf(" %llu",(U)st[i]);
printf(" :");for(i=0;i<R;i++)printf(" %u",b[i]);printf(" :");for(i=0;i<R;i++)printf(" %u",e[i]);printf(" : %d\n",(int)res);}}
