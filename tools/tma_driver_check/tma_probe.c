typedef unsigned long long U;typedef unsigned V;
typedef struct{_Alignas(64) U o[16];}M;int cuInit(V);int cuDeviceGet(int*,int);int cuCtxCreate_v2(void**,V,int);
int cuTensorMapEncodeTiled(M*,int,V,void*,const U*,const U*,const V*,const V*,int,int,int,int);
#include <stdio.h>
static M m;
int E(int t,V R,U*g,U*s,V*b,V*e,int il,int sw){return cuTensorMapEncodeTiled(&m,t,R,(void*)4096,g,s,b,e,il,sw,0,0);}
int main(){int d;void*x;cuInit(0);cuDeviceGet(&d,0);cuCtxCreate_v2(&x,0,d);
U g[3]={1024,1024,1024},s[2]={4096,4194304};V b[3],e[3];
for(V b0=4;b0<=256;b0+=4)for(V e0=1;e0<=8;e0++)for(V e1=1;e1<=8;e1++){int mx=0,n=0;
for(V b1=1;b1<=256;b1++){b[0]=b0;b[1]=b1;e[0]=e0;e[1]=e1;if(!E(7,2,g,s,b,e,0,0)){n++;mx=b1;}}
printf("A %u %u %u %d %d\n",b0,e0,e1,mx,n);}
for(V b0=16;b0<=256;b0+=16)for(V b1=1;b1<=256;b1*=2){int mx=0;for(V b2=1;b2<=256;b2++){b[0]=b0;b[1]=b1;b[2]=b2;e[0]=e[1]=e[2]=1;if(!E(7,3,g,s,b,e,0,0))mx=b2;}printf("B %u %u %d\n",b0,b1,mx);}
U h[3]={256,64,64},hs[2]={1024,65536};
for(int il=1;il<=2;il++)for(int sw=0;sw<4;sw++)for(int t=0;t<9;t+=3){V z=t==0?1:t==3?4:2;for(V b0=1;b0<=256;b0++){b[0]=b0;b[1]=2;b[2]=2;e[0]=e[1]=e[2]=1;
if(!E(t,3,h,hs,b,e,il,sw))printf("C %d %d %u %u\n",il,sw,z,b0*z);}}}
